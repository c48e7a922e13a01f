/// The 9 bytes before every HTTP/2 frame (RFC 9113 §4.1): length (24 bits), type, flags, a
/// reserved bit and the stream identifier (31 bits). Read here only, by the frame reader, the
/// budget's frame walk and the request index.
struct HTTP2FrameHeader: Sendable, Equatable {
    static let length = 9

    let payloadLength: Int
    let type: UInt8
    let flags: UInt8
    let streamID: UInt32

    /// The header at the front of `bytes`; nil when fewer than 9 bytes are there.
    init?(_ bytes: some Collection<UInt8>) {
        guard bytes.count >= Self.length else { return nil }
        let b = Array(bytes.prefix(Self.length))
        payloadLength = Int(b[0]) << 16 | Int(b[1]) << 8 | Int(b[2])
        type = b[3]
        flags = b[4]
        streamID = UInt32(b[5] & 0x7f) << 24 | UInt32(b[6]) << 16 | UInt32(b[7]) << 8 | UInt32(b[8])
    }

    func has(_ flag: UInt8) -> Bool { flags & flag != 0 }
}
