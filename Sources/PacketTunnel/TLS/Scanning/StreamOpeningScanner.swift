import Foundation
import Shared

/// Says how the device's side of a TCP stream began, from its first bytes, on any port: a TLS
/// handshake, an HTTP request line, or neither. A pure value fed chunk by chunk; it keeps no bytes
/// and stays decided.
///
/// - `tlsHandshake`: a handshake record (type 22, version 0x0300…0x0304, length 1…2^14+2048 —
///   RFC 5246 §6.2.3's ciphertext ceiling, the most any version allows) whose first message byte
///   is ClientHello (1). Decided at the sixth byte.
/// - `httpRequest`: a complete request line (`HTTPRequestLineRecognizer`), decided at its LF.
/// - `unrecognised`: anything else, from the first byte that rules both out; a request line not
///   ended within `maxRequestLineBytes`.
package struct StreamOpeningScanner: Sendable {
    package struct Config: Sendable, Equatable {
        /// The longest request line waited for, CRLF included.
        package var maxRequestLineBytes: Int

        package init(maxRequestLineBytes: Int = 8192) {
            self.maxRequestLineBytes = maxRequestLineBytes
        }
    }

    package enum Outcome: Sendable, Equatable {
        case needMoreBytes
        case decided(StreamOpening)
    }

    private enum State: Sendable {
        case start
        /// Bytes of the record header seen so far, and its length field as read.
        case tlsRecord(seen: Int, length: Int)
        case http(HTTPRequestLineRecognizer)
        case decided(StreamOpening)
    }

    private static let maxRecordLength = (1 << 14) + 2048

    package let config: Config
    private var state: State = .start

    package init(config: Config = Config()) {
        self.config = config
    }

    package mutating func scan(_ data: Data) -> Outcome {
        if case .decided(let opening) = state { return .decided(opening) }
        return data.withUnsafeBytes { scan($0) }
    }

    package mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        for byte in bytes {
            if let opening = feed(byte) {
                state = .decided(opening)
                return .decided(opening)
            }
        }
        if case .decided(let opening) = state { return .decided(opening) }
        return .needMoreBytes
    }

    private mutating func feed(_ byte: UInt8) -> StreamOpening? {
        switch state {
        case .decided(let opening):
            return opening
        case .start:
            if byte == 0x16 {
                state = .tlsRecord(seen: 1, length: 0)
                return nil
            }
            var http = HTTPRequestLineRecognizer(maxLineBytes: config.maxRequestLineBytes)
            return advance(&http, byte)
        case .http(var http):
            return advance(&http, byte)
        case .tlsRecord(let seen, let length):
            switch seen {
            case 1: guard byte == 0x03 else { return .unrecognised }
            case 2: guard byte <= 0x04 else { return .unrecognised }
            case 3: break
            case 4:
                let full = length << 8 | Int(byte)
                guard (1...Self.maxRecordLength).contains(full) else { return .unrecognised }
            default:
                return byte == 0x01 ? .tlsHandshake : .unrecognised
            }
            state = .tlsRecord(seen: seen + 1, length: seen >= 3 ? length << 8 | Int(byte) : 0)
            return nil
        }
    }

    private mutating func advance(_ http: inout HTTPRequestLineRecognizer, _ byte: UInt8) -> StreamOpening? {
        switch http.feed(byte) {
        case .undecided:
            state = .http(http)
            return nil
        case .request: return .httpRequest
        case .notRequest: return .unrecognised
        }
    }
}
