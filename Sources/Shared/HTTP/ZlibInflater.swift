import CZlib
import Foundation

/// One zlib inflate stream, driven over a whole input at a time and bounded in what it gives
/// back: gzip (windowBits 31), zlib (15) or raw deflate (-15). The stream lives on between calls,
/// so a later input continues with the earlier window (permessage-deflate's context takeover).
final class ZlibInflater {
    private var stream = z_stream()

    /// Why a call stopped.
    enum Stop: Equatable {
        /// The coded stream ended (Z_STREAM_END).
        case streamEnd
        /// All the input was used and the stream goes on.
        case inputUsed
        /// Giving back more would pass the limit.
        case limit(Int)
        /// zlib's reason the bytes break the format.
        case malformed(String)

        /// What a decoding that stopped here gave: `output`, ending as the stop says; a stream
        /// that used all its input ends `whenInputUsed` (cut for a body, whole for a message
        /// flushed to its end).
        func decoding(_ output: Data, whenInputUsed: ContentDecoding.Ending) -> ContentDecoding {
            switch self {
            case .streamEnd: ContentDecoding(bytes: output, ending: .whole)
            case .inputUsed: ContentDecoding(bytes: output, ending: whenInputUsed)
            case let .limit(limit): ContentDecoding(bytes: output, ending: .stoppedAtLimit(limit))
            case let .malformed(reason): ContentDecoding(bytes: output, ending: .malformed(reason))
            }
        }
    }

    init?(windowBits: Int32) {
        guard inflateInit2_(&stream, windowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
    }

    deinit { inflateEnd(&stream) }

    func reset() { inflateReset(&stream) }

    /// Inflates `input` with `flush` (Z_NO_FLUSH, or Z_SYNC_FLUSH for a message at a time),
    /// giving back at most `limit` bytes.
    func inflate(_ input: [UInt8], flush: Int32, limit: Int) -> (Data, Stop) {
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: ContentDecoder.chunkSize)
        return input.withUnsafeBufferPointer { source -> (Data, Stop) in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = UInt32(source.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { out -> Int32 in
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(out.count)
                    return CZlib.inflate(&stream, flush)
                }
                let produced = chunk.count - Int(stream.avail_out)
                let room = limit - output.count
                output.append(contentsOf: chunk[..<min(produced, room)])
                if produced > room { return (output, .limit(limit)) }
                switch status {
                case Z_STREAM_END: return (output, .streamEnd)
                case Z_OK where stream.avail_in > 0 || stream.avail_out == 0: continue
                case Z_OK, Z_BUF_ERROR: return (output, .inputUsed)
                default: return (output, .malformed(stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"))
                }
            }
        }
    }
}
