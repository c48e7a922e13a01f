/// The 9 bytes before every HTTP/2 frame (RFC 9113 §4.1): length (24 bits), type, flags, a
/// reserved bit and the stream identifier (31 bits). Read here only, by the frame reader, the
/// budget's frame walk and the request index.
public struct HTTP2FrameHeader: Sendable, Equatable {
    public static let length = 9

    public let payloadLength: Int
    public let type: UInt8
    public let flags: UInt8
    public let streamID: UInt32

    /// The header at the front of `bytes`; nil when fewer than 9 bytes are there.
    public init?(_ bytes: some Collection<UInt8>) {
        guard bytes.count >= Self.length else { return nil }
        let b = Array(bytes.prefix(Self.length))
        payloadLength = Int(b[0]) << 16 | Int(b[1]) << 8 | Int(b[2])
        type = b[3]
        flags = b[4]
        streamID = UInt32(b[5] & 0x7f) << 24 | UInt32(b[6]) << 16 | UInt32(b[7]) << 8 | UInt32(b[8])
    }

    public func has(_ flag: UInt8) -> Bool { flags & flag != 0 }
}
