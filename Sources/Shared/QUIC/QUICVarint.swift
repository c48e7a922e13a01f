import Foundation

/// QUIC variable-length integers (RFC 9000 §16): the two high bits of the first byte give the
/// length, the rest is a big-endian value of 6, 14, 30 or 62 bits.
///
///   00xxxxxx                        1 byte,  0 ... 63
///   01xxxxxx x                      2 bytes, 0 ... 16383
///   10xxxxxx x x x                  4 bytes, 0 ... 2^30 − 1
///   11xxxxxx x x x x x x x          8 bytes, 0 ... 2^62 − 1
///
/// Non-minimal encodings are valid here (RFC 9000 §16 allows them except where a rule says
/// otherwise, e.g. frame types, which `QUICFrameReader` checks itself).
package enum QUICVarint {
    /// The largest value a varint can carry: 2^62 − 1.
    package static let maximum: UInt64 = (1 << 62) - 1

    /// Reads the varint at `index` of `bytes` and moves `index` past it; nil (and `index`
    /// untouched) when the encoding runs past the end or `index` is outside the buffer.
    @inline(__always)
    package static func read(from bytes: UnsafeRawBufferPointer, at index: inout Int) -> UInt64? {
        guard index >= 0, index < bytes.count else { return nil }
        let first = bytes[index]
        let length = 1 << Int(first >> 6)
        guard length <= bytes.count - index else { return nil }
        var value = UInt64(first & 0x3F)
        var offset = index + 1
        while offset < index + length {
            value = value << 8 | UInt64(bytes[offset])
            offset += 1
        }
        index = offset
        return value
    }

    /// Reads the varint at `index` (one of `bytes`' own indices, so a slice works as is) and moves
    /// `index` past it; nil (and `index` untouched) when the encoding runs past the end.
    package static func read(from bytes: Data, at index: inout Data.Index) -> UInt64? {
        bytes.withUnsafeBytes { raw -> UInt64? in
            var offset = index - bytes.startIndex
            guard let value = read(from: raw, at: &offset) else { return nil }
            index = bytes.startIndex + offset
            return value
        }
    }

    /// Bytes the shortest encoding of `value` takes (1, 2, 4 or 8); nil above `maximum`.
    package static func encodedLength(of value: UInt64) -> Int? {
        switch value {
        case 0..<(1 << 6): 1
        case 0..<(1 << 14): 2
        case 0..<(1 << 30): 4
        case 0...maximum: 8
        default: nil
        }
    }
}
