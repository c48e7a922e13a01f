/// The TCP options the relay acts on, as a value: parsed from a SYN, emitted on a SYN-ACK.
///
/// Grammar (RFC 9293 §3.1–3.2; window scale RFC 7323 §2.2), a list of
///   kind 0                      end of option list: nothing after it is read
///   kind 1                      no-operation (padding)
///   kind 2 · len 4 · u16        maximum segment size (SYN only)
///   kind 3 · len 3 · u8         window scale shift (SYN only)
///   kind · len (≥ 2) · data     any other option: skipped whole, by its length
/// Only MSS and window scale are kept: they are the two that change what the relay sends. A
/// repeated option keeps its first value, as Linux does.
package struct TCPOptions: Sendable, Hashable {
    package var maximumSegmentSize: UInt16?
    package var windowScale: UInt8?

    package init(maximumSegmentSize: UInt16? = nil, windowScale: UInt8? = nil) {
        self.maximumSegmentSize = maximumSegmentSize
        self.windowScale = windowScale
    }

    /// Parses the option bytes of a TCP header (offset 20 up to the data offset).
    package static func parse(_ bytes: some RandomAccessCollection<UInt8>) throws(TCPOptionsParseError) -> TCPOptions {
        var options = TCPOptions()
        var offset = 0
        func byte(_ at: Int) -> UInt8 { bytes[bytes.index(bytes.startIndex, offsetBy: at)] }
        while offset < bytes.count {
            let kind = byte(offset)
            if kind == 0 { break }
            if kind == 1 { offset += 1; continue }
            guard offset + 1 < bytes.count else { throw .truncated(kind: kind, offset: offset) }
            let length = Int(byte(offset + 1))
            guard length >= 2 else { throw .badLength(kind: kind, length: length, offset: offset) }
            guard offset + length <= bytes.count else { throw .truncated(kind: kind, offset: offset) }
            switch kind {
            case 2:
                guard length == 4 else { throw .badLength(kind: kind, length: length, offset: offset) }
                if options.maximumSegmentSize == nil {
                    options.maximumSegmentSize = UInt16(byte(offset + 2)) << 8 | UInt16(byte(offset + 3))
                }
            case 3:
                guard length == 3 else { throw .badLength(kind: kind, length: length, offset: offset) }
                if options.windowScale == nil { options.windowScale = byte(offset + 2) }
            default:
                break
            }
            offset += length
        }
        return options
    }

    /// Bytes `encoded` takes: always a multiple of 4, as the data offset counts 32-bit words.
    package var encodedLength: Int { (maximumSegmentSize == nil ? 0 : 4) + (windowScale == nil ? 0 : 4) }

    /// MSS as `2 4 hi lo`; window scale as `1 3 3 shift`, the NOP keeping it word-aligned.
    package var encoded: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encodedLength)
        if let maximumSegmentSize {
            bytes += [2, 4, UInt8(maximumSegmentSize >> 8), UInt8(truncatingIfNeeded: maximumSegmentSize)]
        }
        if let windowScale { bytes += [1, 3, 3, windowScale] }
        return bytes
    }
}

/// Why a header's options could not be read. The segment is malformed: the caller drops it and
/// counts the drop; the sender retransmits if it meant something else.
package enum TCPOptionsParseError: Error, Sendable, Equatable {
    /// The option at `offset` runs past the end of the option bytes.
    case truncated(kind: UInt8, offset: Int)
    /// The option's length byte is impossible (< 2), or wrong for its kind.
    case badLength(kind: UInt8, length: Int, offset: Int)
}
