/// Why the frames of an opened Initial could not all be read. The packet authenticated, so its
/// sender really sent this: the caller stops reading the flow's Initials (a peer would close the
/// connection) and counts it.
package enum QUICFrameError: Error, Sendable, Hashable {
    /// The frame starting at this offset of the payload runs past its end.
    case truncated(offset: Int)
    /// CONNECTION_CLOSE (0x1c): the sender is abandoning the connection, with this error code
    /// (RFC 9000 §20.1; 0x0100–0x01ff carry a TLS alert, §20.1 CRYPTO_ERROR).
    case connectionClose(errorCode: UInt64)
    /// A frame type Initial packets may not carry (RFC 9000 §12.4, Table 3: only PADDING, PING,
    /// ACK, CRYPTO and CONNECTION_CLOSE 0x1c are allowed).
    case notAllowedInInitial(frameType: UInt64)
    /// A frame type written in more bytes than it needs (RFC 9000 §12.4 forbids it).
    case nonMinimalFrameType(UInt64)
    /// A CRYPTO frame ending beyond 2^62 − 1 (RFC 9000 §19.6).
    case cryptoOffsetTooLarge
}

extension QUICFrameError: CustomStringConvertible {
    /// A short, stable identifier of the case (for counters, JSON and tests).
    package var kind: String {
        switch self {
        case .truncated: "truncated"
        case .connectionClose: "connectionClose"
        case .notAllowedInInitial: "notAllowedInInitial"
        case .nonMinimalFrameType: "nonMinimalFrameType"
        case .cryptoOffsetTooLarge: "cryptoOffsetTooLarge"
        }
    }

    package var description: String {
        switch self {
        case let .truncated(offset): "the frame at byte \(offset) runs past the packet"
        case let .connectionClose(code): "the sender closed the connection (error 0x\(String(code, radix: 16)))"
        case let .notAllowedInInitial(type): "frame type 0x\(String(type, radix: 16)) is not allowed in an Initial"
        case let .nonMinimalFrameType(type): "frame type 0x\(String(type, radix: 16)) is not minimally encoded"
        case .cryptoOffsetTooLarge: "a CRYPTO frame ends beyond 2^62 - 1"
        }
    }
}
