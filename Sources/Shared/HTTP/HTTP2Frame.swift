/// One HTTP/2 frame (RFC 9113 §4.1): a 9-byte header — length (24 bits), type, flags, a reserved
/// bit and the stream identifier (31 bits) — then the payload.
public struct HTTP2Frame: Sendable, Equatable {
    public let type: UInt8
    public let flags: UInt8
    public let streamID: UInt32
    public let payload: ArraySlice<UInt8>

    /// §6: the frame types this reader acts on; any other type is passed over (§4.1).
    public enum Kind: UInt8, Sendable {
        case data = 0, headers, priority, resetStream, settings, pushPromise, ping, goAway, windowUpdate, continuation
    }

    /// §6's flags, by the bit each sets.
    public enum Flag {
        public static let endStream: UInt8 = 0x1
        public static let acknowledge: UInt8 = 0x1
        public static let endHeaders: UInt8 = 0x4
        public static let padded: UInt8 = 0x8
        public static let priority: UInt8 = 0x20
    }

    public static let headerLength = 9

    public var kind: Kind? { Kind(rawValue: type) }
    public func has(_ flag: UInt8) -> Bool { flags & flag != 0 }

    /// The frames whole at the front of `bytes`, and how many bytes after them begin a frame
    /// that was cut (the budget, or the end of the connection).
    public static func frames(in bytes: ArraySlice<UInt8>) -> (frames: [HTTP2Frame], unreadBytes: Int) {
        var frames: [HTTP2Frame] = []
        var position = bytes.startIndex
        while bytes.endIndex - position >= headerLength {
            let length = Int(bytes[position]) << 16 | Int(bytes[position + 1]) << 8 | Int(bytes[position + 2])
            let start = position + headerLength
            guard bytes.endIndex - start >= length else { break }
            let stream = UInt32(bytes[position + 5] & 0x7f) << 24 | UInt32(bytes[position + 6]) << 16
                | UInt32(bytes[position + 7]) << 8 | UInt32(bytes[position + 8])
            frames.append(HTTP2Frame(type: bytes[position + 3], flags: bytes[position + 4], streamID: stream,
                                     payload: bytes[start..<(start + length)]))
            position = start + length
        }
        return (frames, bytes.endIndex - position)
    }

    /// The payload without its padding (§6.1: a pad length byte, then the padding at the end) when
    /// PADDED is set; nil when the padding is longer than the payload (a PROTOCOL_ERROR).
    public var unpadded: ArraySlice<UInt8>? {
        guard has(Flag.padded) else { return payload }
        guard let padLength = payload.first.map(Int.init), padLength < payload.count else { return nil }
        return payload[(payload.startIndex + 1)..<(payload.endIndex - padLength)]
    }

    /// A 32-bit number at `offset` into the payload.
    public func word(at offset: Int) -> UInt32? {
        let start = payload.startIndex + offset
        guard payload.endIndex - start >= 4 else { return nil }
        return UInt32(payload[start]) << 24 | UInt32(payload[start + 1]) << 16 | UInt32(payload[start + 2]) << 8 | UInt32(payload[start + 3])
    }
}
