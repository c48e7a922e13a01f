/// Why a datagram did not give up a client Initial's frames. None of these is a fault of the
/// tunnel: the caller counts the datagram (`QUICNameStats.initialsUnopenable` for the last four)
/// and lets it pass untouched.
package enum QUICInitialError: Error, Sendable, Hashable {
    /// The first byte lacks the long-header bit or the fixed bit (RFC 9000 §17.2, RFC 9287): a
    /// short-header packet, a grease-cleared one, or not QUIC. Stop reading this datagram.
    case notALongHeader
    /// A long header of a version whose Initial protection is unknown here (anything but 1 and 2,
    /// Version Negotiation's 0 included). Nothing can be opened; record the version if useful.
    case unsupportedVersion(QUICVersion)
    /// A 0-RTT, Handshake or Retry packet (type bits per version, RFC 9369 §3.2): no Initial keys
    /// apply. In a coalesced datagram, the Initials before it are still good.
    case notAnInitial
    /// A connection ID over 20 bytes, which versions 1 and 2 forbid (RFC 9000 §17.2): drop.
    case connectionIDTooLong
    /// The datagram ends before the header, the token or the Length's worth of packet does.
    case truncated
    /// The Length field is below 20, so there is no 16-byte sample 4 bytes after the packet
    /// number start (RFC 9001 §5.4.2): no sender produces this; drop.
    case tooShortToSample
    /// The keys were derived for another version than the packet's: derive the right ones.
    case keysOfAnotherVersion
    /// OpenSSL refused the header-protection cipher, or the key or sample had the wrong size.
    case headerProtectionFailed
    /// The AEAD tag did not verify: the bytes were altered, or these are not the keys of this
    /// connection (e.g. a Retry changed the connection ID the keys come from). Nothing is output.
    case authenticationFailed
}

extension QUICInitialError: CustomStringConvertible {
    /// A short, stable identifier of the case (for counters, JSON and tests).
    package var kind: String {
        switch self {
        case .notALongHeader: "notALongHeader"
        case .unsupportedVersion: "unsupportedVersion"
        case .notAnInitial: "notAnInitial"
        case .connectionIDTooLong: "connectionIDTooLong"
        case .truncated: "truncated"
        case .tooShortToSample: "tooShortToSample"
        case .keysOfAnotherVersion: "keysOfAnotherVersion"
        case .headerProtectionFailed: "headerProtectionFailed"
        case .authenticationFailed: "authenticationFailed"
        }
    }

    package var description: String {
        switch self {
        case .notALongHeader: "not a QUIC long header"
        case let .unsupportedVersion(version):
            "QUIC version 0x\(String(version.rawValue, radix: 16)) has no known Initial protection"
        case .notAnInitial: "a long-header packet other than an Initial"
        case .connectionIDTooLong: "a connection ID longer than 20 bytes"
        case .truncated: "the datagram ends inside the Initial packet"
        case .tooShortToSample: "the Initial packet is too short to sample for header protection"
        case .keysOfAnotherVersion: "the keys belong to another QUIC version"
        case .headerProtectionFailed: "header protection could not be removed"
        case .authenticationFailed: "the Initial packet did not authenticate"
        }
    }
}
