/// A QUIC version as its 4-byte wire value (RFC 9000 §15): an open code point, so drafts,
/// greased and private versions are kept as they came.
package struct QUICVersion: RawRepresentable, Sendable, Hashable, Codable {
    package let rawValue: UInt32

    package init(rawValue: UInt32) { self.rawValue = rawValue }

    /// RFC 9000.
    package static let v1 = QUICVersion(rawValue: 0x0000_0001)
    /// RFC 9369.
    package static let v2 = QUICVersion(rawValue: 0x6b33_43cf)

    /// Whether this build knows how to remove the Initial packets' protection (RFC 9001 §5.2,
    /// RFC 9369 §3.3.1), and so can read what they carry.
    package var hasKnownPacketProtection: Bool { self == .v1 || self == .v2 }

    /// The TLS version every handshake of this QUIC version runs, when this build knows it: 1.3 for
    /// v1 (RFC 9001 §4.2: "Clients MUST NOT offer TLS versions older than 1.3") and v2 (RFC 9369
    /// §3 changes nothing of the handshake); nil for any other version. The one statement of that
    /// fact, for the audit's TLS version check and the release diff alike.
    package var carriedTLSVersion: TLSProtocolVersion? { self == .v1 || self == .v2 ? .tls13 : nil }
}

/// Which end a QUIC version was read from.
package enum QUICVersionSource: String, Sendable, Hashable, Codable, CaseIterable {
    /// The client's first Initial: what it tried.
    case client
    /// A server's long header: what the connection actually uses.
    case server
}

/// A QUIC version and the end it was read from.
package struct QUICVersionReading: Sendable, Hashable, Codable {
    package var version: QUICVersion
    package var source: QUICVersionSource

    package init(version: QUICVersion, source: QUICVersionSource) {
        self.version = version
        self.source = source
    }

    /// Whether this reading should take the place of `current`: anything beats no reading; the
    /// server has the last word (version negotiation can move the client); a client reading never
    /// overrides what the server said.
    package func replaces(_ current: QUICVersionReading?) -> Bool {
        guard let current else { return true }
        return source == .server || current.source == .client
    }
}
