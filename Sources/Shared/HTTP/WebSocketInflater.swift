import CZlib
import Foundation

/// permessage-deflate's decompressor (RFC 7692 §7.2.2): each message's payload with the empty
/// block's tail 00 00 FF FF put back, inflated as raw deflate through one zlib stream, so a
/// sender that keeps its window between messages (context takeover) is read right. Bounded per
/// message at `ContentDecoder.defaultLimit`. Used by one reader, never shared.
final class WebSocketInflater {
    private let inflater = ZlibInflater(windowBits: -15)

    /// The window is dropped between messages: the sender agreed no context takeover.
    func reset() { inflater?.reset() }

    func inflate(_ payload: [UInt8], complete: Bool, limit: Int = ContentDecoder.defaultLimit) -> ContentDecoding {
        guard let inflater else { return ContentDecoding(bytes: Data(), ending: .malformed("zlib could not start")) }
        let (output, stop) = inflater.inflate(complete ? payload + [0x00, 0x00, 0xff, 0xff] : payload, flush: Z_SYNC_FLUSH, limit: limit)
        // A final block inside a message (its sender ended the stream) reads as a whole message too.
        if stop == .streamEnd { return ContentDecoding(bytes: output, ending: complete ? .whole : .cut) }
        return stop.decoding(output, whenInputUsed: complete ? .whole : .cut)
    }
}
