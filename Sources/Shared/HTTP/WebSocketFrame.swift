/// One WebSocket frame (RFC 6455 §5.2): FIN, RSV1–3, the opcode, the mask bit, a 7-, 16- or
/// 64-bit payload length, the masking key when masked, then the payload — held unmasked (§5.3).
struct WebSocketFrame: Sendable, Equatable {
    let fin: Bool
    /// RSV1: set on a message's first frame when permessage-deflate compressed it (RFC 7692 §6).
    let rsv1: Bool
    let opcode: UInt8
    let masked: Bool
    let payload: [UInt8]

    /// §5.2's opcodes.
    enum Opcode {
        static let continuation: UInt8 = 0x0
        static let text: UInt8 = 0x1
        static let binary: UInt8 = 0x2
        static let close: UInt8 = 0x8
        static let ping: UInt8 = 0x9
        static let pong: UInt8 = 0xA
    }

    /// Control frames (§5.5) have the opcode's high bit set.
    var isControl: Bool { opcode & 0x8 != 0 }

    /// The frames whole at the front of `bytes`, where each began, and how many bytes after them
    /// begin a frame that was cut.
    static func frames(in bytes: ArraySlice<UInt8>) -> (frames: [(offset: Int, frame: WebSocketFrame)], unreadBytes: Int) {
        var frames: [(offset: Int, frame: WebSocketFrame)] = []
        var position = bytes.startIndex
        while let (frame, length) = frame(at: position, in: bytes) {
            frames.append((position - bytes.startIndex, frame))
            position += length
        }
        return (frames, bytes.endIndex - position)
    }

    /// The frame at `position` and its length on the wire; nil when it is not all there.
    static func frame(at position: Int, in bytes: ArraySlice<UInt8>) -> (WebSocketFrame, Int)? {
        guard bytes.endIndex - position >= 2 else { return nil }
        let first = bytes[position], second = bytes[position + 1]
        var cursor = position + 2
        var length = Int(second & 0x7f)
        let extended = length == 126 ? 2 : length == 127 ? 8 : 0
        if extended > 0 {
            guard bytes.endIndex - cursor >= extended else { return nil }
            var value: UInt64 = 0
            for byte in bytes[cursor..<(cursor + extended)] { value = value << 8 | UInt64(byte) }
            guard value <= UInt64(Int32.max) else { return nil }   // more than any kept stream holds
            length = Int(value)
            cursor += extended
        }
        let masked = second & 0x80 != 0
        var key: [UInt8] = []
        if masked {
            guard bytes.endIndex - cursor >= 4 else { return nil }
            key = Array(bytes[cursor..<(cursor + 4)])
            cursor += 4
        }
        guard bytes.endIndex - cursor >= length else { return nil }
        var payload = Array(bytes[cursor..<(cursor + length)])
        if masked { for index in payload.indices { payload[index] ^= key[index & 3] } }
        let frame = WebSocketFrame(fin: first & 0x80 != 0, rsv1: first & 0x40 != 0, opcode: first & 0x0f, masked: masked, payload: payload)
        return (frame, cursor + length - position)
    }
}
