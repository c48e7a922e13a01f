/// One HTTP/2 frame (RFC 9113 §4.1): a 9-byte header — length (24 bits), type, flags, a reserved
/// bit and the stream identifier (31 bits) — then the payload. A DATA frame's payload may be kept
/// only in part (`PlaintextBudget`): `length` says what it carried.
struct HTTP2Frame: Sendable, Equatable {
    let type: UInt8
    let flags: UInt8
    let streamID: UInt32
    /// The payload's kept bytes, from its start.
    let payload: ArraySlice<UInt8>
    /// The payload's length as the header says.
    let length: Int

    init(type: UInt8, flags: UInt8, streamID: UInt32, payload: ArraySlice<UInt8>, length: Int? = nil) {
        self.type = type
        self.flags = flags
        self.streamID = streamID
        self.payload = payload
        self.length = length ?? payload.count
    }

    /// Part of the payload was not kept.
    var isCut: Bool { payload.count < length }

    /// §6: the frame types this reader acts on; any other type is passed over (§4.1).
    enum Kind: UInt8, Sendable {
        case data = 0, headers, priority, resetStream, settings, pushPromise, ping, goAway, windowUpdate, continuation
    }

    /// §6's flags, by the bit each sets.
    enum Flag {
        static let endStream: UInt8 = 0x1
        static let acknowledge: UInt8 = 0x1
        static let endHeaders: UInt8 = 0x4
        static let padded: UInt8 = 0x8
        static let priority: UInt8 = 0x20
    }

    static let headerLength = HTTP2FrameHeader.length

    var kind: Kind? { Kind(rawValue: type) }
    func has(_ flag: UInt8) -> Bool { flags & flag != 0 }

    /// The frames of one direction as kept, in order. A frame whose payload the budget cut is
    /// passed over by its length. Reading stops where a frame's header was not kept — nothing
    /// after it can be placed: `notFollowed` counts what is left there, kept or not — or where
    /// the bytes end inside a frame (the connection ended): `unreadBytes` counts those.
    static func frames(in stream: KeptStream) -> (frames: [HTTP2Frame], unreadBytes: Int, notFollowed: Int) {
        var frames: [HTTP2Frame] = []
        var reader = KeptStream.Reader(stream)
        while !reader.atEnd {
            let head = reader.run
            guard head.count >= headerLength else {
                var rest = reader
                let left = rest.takeRest()
                // The kept bytes end inside a header (the connection ended there), or a gap hides it.
                return left.notKept == 0 ? (frames, left.front.count, 0) : (frames, 0, left.carriedCount)
            }
            guard let header = HTTP2FrameHeader(head) else { break }   // not reached: nine bytes are there
            let length = header.payloadLength
            var probe = reader
            _ = probe.take(headerLength)
            let payload = probe.take(length)
            // Kept bytes after a gap inside one payload cannot be placed in it: only its front is.
            let frame = HTTP2Frame(type: header.type, flags: header.flags, streamID: header.streamID, payload: payload.front, length: length)
            guard payload.missing == 0 else {
                // The bytes end inside this payload: a cut one is said as cut (the rest of its gap
                // is still to be written while the flow lives); a whole one was ended early.
                if payload.notKept > 0 { return (frames + [frame], 0, 0) }
                return (frames, headerLength + payload.front.count + payload.keptAfterGap, 0)
            }
            reader = probe
            frames.append(frame)
        }
        return (frames, 0, 0)
    }

    /// The payload without its padding (§6.1: a pad length byte, then the padding at the end) when
    /// PADDED is set; nil when the padding is longer than the payload (a PROTOCOL_ERROR).
    /// Of a cut payload, the kept part of the content.
    var unpadded: ArraySlice<UInt8>? {
        guard has(Flag.padded) else { return payload }
        guard let padLength = payload.first.map(Int.init), padLength < length else { return nil }
        let contentEnd = payload.startIndex + length - padLength
        return payload[(payload.startIndex + 1)..<min(contentEnd, payload.endIndex)]
    }

    /// The content's length as carried, padding removed; nil as for `unpadded`.
    var contentLength: Int? {
        guard has(Flag.padded) else { return length }
        guard let padLength = payload.first.map(Int.init), padLength < length else { return nil }
        return length - 1 - padLength
    }

    /// A 32-bit number at `offset` into the payload.
    func word(at offset: Int) -> UInt32? {
        let start = payload.startIndex + offset
        guard payload.endIndex - start >= 4 else { return nil }
        return UInt32(payload[start]) << 24 | UInt32(payload[start + 1]) << 16 | UInt32(payload[start + 2]) << 8 | UInt32(payload[start + 3])
    }
}
