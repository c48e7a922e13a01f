import CBrotli
import CZlib
import Foundation

/// What decoding a body through its content codings gave: the decoded bytes, as many as could be
/// read, and whether they are all of it.
package struct ContentDecoding: Sendable, Equatable {
    package let bytes: Data
    package enum Ending: Sendable, Equatable {
        /// Every coding's stream ended as its format says.
        case whole
        /// The coded bytes stopped before a stream's end: the body was cut.
        case cut
        /// Decoding stopped at `ContentDecoder`'s limit: what follows was not decoded.
        case stoppedAtLimit(Int)
        /// The coded bytes break their format here: the reader's reason.
        case malformed(String)
    }
    package let ending: Ending
}

/// Decodes gzip, deflate and br bodies with zlib and Brotli's own decoders, never hand-rolled,
/// bounded: a body that decodes to more than the limit (a decompression bomb, or just large) is
/// decoded up to it and said to be stopped there. Pure: memory in, memory out.
package enum ContentDecoder {
    /// What a screen shows of one body; a kept body is far smaller before decoding.
    package static let defaultLimit = 8 << 20
    static let chunkSize = 64 * 1024

    /// `codings` as Content-Encoding lists them, applied in that order, so undone last first.
    package static func decode(_ bytes: Data, codings: [ContentCoding], limit: Int = defaultLimit) -> ContentDecoding {
        var current = ContentDecoding(bytes: bytes, ending: .whole)
        for coding in codings.reversed() {
            let next = decode(current.bytes, coding, limit: limit)
            // An inner cut or stop leaves the outer layer's input short: its ending is the one said.
            current = ContentDecoding(bytes: next.bytes, ending: current.ending == .whole ? next.ending : current.ending)
            if case .malformed = next.ending { current = next; break }
        }
        return current
    }

    static func decode(_ bytes: Data, _ coding: ContentCoding, limit: Int) -> ContentDecoding {
        switch coding {
        case .gzip: return inflate(bytes, windowBits: 15 + 16, limit: limit)
        case .deflate:
            // RFC 9110 §8.4.1.2: zlib's format; some servers send the raw deflate stream instead.
            let wrapped = inflate(bytes, windowBits: 15, limit: limit)
            if case .malformed = wrapped.ending, wrapped.bytes.isEmpty { return inflate(bytes, windowBits: -15, limit: limit) }
            return wrapped
        case .br: return brotli(bytes, limit: limit)
        }
    }

    /// zlib's inflate: windowBits 31 reads gzip, 15 zlib, -15 a raw deflate stream.
    static func inflate(_ bytes: Data, windowBits: Int32, limit: Int) -> ContentDecoding {
        guard let inflater = ZlibInflater(windowBits: windowBits) else {
            return ContentDecoding(bytes: Data(), ending: .malformed("zlib could not start"))
        }
        let (output, stop) = inflater.inflate([UInt8](bytes), flush: Z_NO_FLUSH, limit: limit)
        return stop.decoding(output, whenInputUsed: .cut)
    }

    /// Brotli's streaming decoder (RFC 7932).
    static func brotli(_ bytes: Data, limit: Int) -> ContentDecoding {
        guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else {
            return ContentDecoding(bytes: Data(), ending: .malformed("the Brotli decoder could not start"))
        }
        defer { BrotliDecoderDestroyInstance(state) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        let input = [UInt8](bytes)
        return input.withUnsafeBufferPointer { source -> ContentDecoding in
            var availableIn = source.count
            var nextIn = source.baseAddress
            while true {
                var produced = 0
                let result = chunk.withUnsafeMutableBufferPointer { out -> BrotliDecoderResult in
                    var availableOut = out.count
                    var nextOut = out.baseAddress
                    let result = BrotliDecoderDecompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                    produced = out.count - availableOut
                    return result
                }
                if let stopped = append(chunk[..<produced], to: &output, limit: limit) { return stopped }
                switch result {
                case BROTLI_DECODER_RESULT_SUCCESS: return ContentDecoding(bytes: output, ending: .whole)
                case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: continue
                case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT: return ContentDecoding(bytes: output, ending: .cut)
                default:
                    let reason = String(cString: BrotliDecoderErrorString(BrotliDecoderGetErrorCode(state)))
                    return ContentDecoding(bytes: output, ending: .malformed(reason))
                }
            }
        }
    }

    /// Appends what fits under `limit`; the decoding stopped there when something did not fit.
    private static func append(_ piece: ArraySlice<UInt8>, to output: inout Data, limit: Int) -> ContentDecoding? {
        let room = limit - output.count
        output.append(contentsOf: piece.prefix(room))
        return piece.count > room ? ContentDecoding(bytes: output, ending: .stoppedAtLimit(limit)) : nil
    }
}
