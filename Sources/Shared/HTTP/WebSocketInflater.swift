import CZlib
import Foundation

/// permessage-deflate's decompressor (RFC 7692 §7.2.2): each message's payload with the empty
/// block's tail 00 00 FF FF put back, inflated as raw deflate by zlib through one stream, so a
/// sender that keeps its window between messages (context takeover) is read right. Bounded per
/// message at `ContentDecoder.defaultLimit`. Used by one reader, never shared.
final class WebSocketInflater {
    private var stream = z_stream()
    private var started = false

    init() { started = inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK }

    deinit { if started { inflateEnd(&stream) } }

    /// The window is dropped between messages: the sender agreed no context takeover.
    func reset() { if started { inflateReset(&stream) } }

    func inflate(_ payload: [UInt8], complete: Bool, limit: Int = ContentDecoder.defaultLimit) -> ContentDecoding {
        guard started else { return ContentDecoding(bytes: Data(), ending: .malformed("zlib could not start")) }
        let input = complete ? payload + [0x00, 0x00, 0xff, 0xff] : payload
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: ContentDecoder.chunkSize)
        return input.withUnsafeBufferPointer { source -> ContentDecoding in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = UInt32(source.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { out -> Int32 in
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(out.count)
                    return CZlib.inflate(&stream, Z_SYNC_FLUSH)
                }
                let produced = ContentDecoder.chunkSize - Int(stream.avail_out)
                let room = limit - output.count
                output.append(contentsOf: chunk[..<min(produced, room)])
                if produced > room { return ContentDecoding(bytes: output, ending: .stoppedAtLimit(limit)) }
                switch status {
                case Z_OK where stream.avail_in > 0 || stream.avail_out == 0: continue
                case Z_OK, Z_BUF_ERROR, Z_STREAM_END: return ContentDecoding(bytes: output, ending: complete ? .whole : .cut)
                default:
                    let reason = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                    return ContentDecoding(bytes: output, ending: .malformed(reason))
                }
            }
        }
    }
}
