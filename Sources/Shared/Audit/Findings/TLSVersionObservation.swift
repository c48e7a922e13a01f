/// Where the TLS version a check read came from. Raw values are stable identifiers.
package enum TLSVersionBasis: String, Sendable, Hashable, CaseIterable {
    /// The server's cleartext ServerHello to the app: the answer to the app's own ClientHello.
    case serverHello
    /// The tunnel's own connection to the server on an inspected flow: the server's answer to the
    /// tunnel, which stands for the app's only when the app offered nothing older than the minimum.
    case upstreamConnection
    /// A QUIC version the server used: QUIC v1 and v2 carry TLS 1.3 and nothing else.
    case quic

    /// How a report names the reading, after "read from".
    package var phrase: String {
        switch self {
        case .serverHello: "the server's ServerHello"
        case .upstreamConnection: "the tunnel's own connection to the server"
        case .quic: "the QUIC version the server used"
        }
    }
}

/// A TLS version the check read, and where it read it.
package struct TLSVersionObservation: Sendable, Hashable {
    package var version: TLSProtocolVersion
    package var basis: TLSVersionBasis

    package init(version: TLSProtocolVersion, basis: TLSVersionBasis) {
        self.version = version
        self.basis = basis
    }
}
