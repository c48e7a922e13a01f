import Foundation

/// Follows one direction of an HTTP/2 connection frame by frame as it is decrypted (RFC 9113 §4.1:
/// a 9-byte header — 24-bit length, type, flags, 31-bit stream — then the payload), across chunk
/// boundaries, and says which of its bytes to keep: the client's preface, every frame header,
/// every payload but DATA's, and of each stream's DATA its first `perStream` bytes (and a padded
/// frame's pad length). Only lengths
/// and stream numbers are read; nothing is judged. Pure.
struct HTTP2FrameKeeping: Sendable {
    /// Streams whose DATA allowance is remembered; past it the oldest (lowest) is forgotten.
    static let rememberedStreams = 1_024

    private var prefaceLeft: Int?
    private var header: [UInt8] = []
    private var payloadLeft = 0
    /// How many of `payloadLeft`'s first bytes are kept.
    private var payloadKept = 0
    private var dataKept: [UInt32: Int] = [:]

    /// Calls `run(keep, length)` for each run of `chunk`'s bytes, in order.
    mutating func walk(_ chunk: Data, direction: Direction, perStream: Int, _ run: (Bool, Int) -> Void) {
        if prefaceLeft == nil { prefaceLeft = direction == .outbound ? HTTP2Connection.preface.count : 0 }
        chunk.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var position = 0
            while position < bytes.count {
                let available = bytes.count - position
                if let left = prefaceLeft, left > 0 {
                    let take = min(left, available)
                    run(true, take)
                    prefaceLeft = left - take
                    position += take
                } else if payloadLeft > 0 {
                    let take = min(payloadLeft, available)
                    let kept = min(take, payloadKept)
                    run(true, kept)
                    run(false, take - kept)
                    payloadKept -= kept
                    payloadLeft -= take
                    position += take
                } else {
                    let take = min(HTTP2FrameHeader.length - header.count, available)
                    header += bytes[position..<(position + take)]
                    run(true, take)
                    position += take
                    if let whole = HTTP2FrameHeader(header) { begin(whole, perStream: perStream) }
                }
            }
        }
    }

    /// A frame header is whole: its payload is next.
    private mutating func begin(_ frame: HTTP2FrameHeader, perStream: Int) {
        let length = frame.payloadLength, stream = frame.streamID
        let isData = frame.type == HTTP2Frame.Kind.data.rawValue
        let padded = frame.has(HTTP2Frame.Flag.padded)
        header.removeAll(keepingCapacity: true)
        payloadLeft = length
        guard isData else {
            payloadKept = length
            return
        }
        if dataKept[stream] == nil, dataKept.count >= Self.rememberedStreams, let oldest = dataKept.keys.min() {
            dataKept[oldest] = nil
        }
        let already = dataKept[stream, default: 0]
        let allowed = min(length, max(0, perStream - already))
        dataKept[stream] = already + allowed
        // A padded frame's first byte says its padding: kept, so its content's length is known.
        payloadKept = padded && length > 0 ? max(allowed, 1) : allowed
    }
}
