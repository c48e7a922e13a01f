/// Why the frames of an opened client Initial could not all be read. The packet authenticated,
/// so the client really sent this: the caller stops reading the flow's Initials (a server would
/// close the connection) and counts it.
public enum QUICFrameError: Error, Sendable, Hashable {
    /// The frame starting at this offset of the payload runs past its end.
    case truncated(offset: Int)
    /// CONNECTION_CLOSE (0x1c): the client is abandoning the connection.
    case connectionClose
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
    public var kind: String {
        switch self {
        case .truncated: "truncated"
        case .connectionClose: "connectionClose"
        case .notAllowedInInitial: "notAllowedInInitial"
        case .nonMinimalFrameType: "nonMinimalFrameType"
        case .cryptoOffsetTooLarge: "cryptoOffsetTooLarge"
        }
    }

    public var description: String {
        switch self {
        case let .truncated(offset): "the frame at byte \(offset) runs past the packet"
        case .connectionClose: "the client closed the connection"
        case let .notAllowedInInitial(type): "frame type 0x\(String(type, radix: 16)) is not allowed in an Initial"
        case let .nonMinimalFrameType(type): "frame type 0x\(String(type, radix: 16)) is not minimally encoded"
        case .cryptoOffsetTooLarge: "a CRYPTO frame ends beyond 2^62 - 1"
        }
    }
}
