/// An append-only ASCII byte buffer: the one place numbers and addresses become text.
///
/// `IPAddress.description` and the `packets` listing both write through it, so an address reads the
/// same everywhere, and a listing of a million records formats without a `String` per field.
public struct ASCIIWriter: Sendable {
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 64) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public var count: Int { bytes.count }
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    public mutating func removeAll(keepingCapacity: Bool = true) {
        bytes.removeAll(keepingCapacity: keepingCapacity)
    }

    @inline(__always)
    public mutating func append(_ byte: UInt8) { bytes.append(byte) }

    public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    public mutating func append<C: Collection>(contentsOf other: C) where C.Element == UInt8 {
        bytes.append(contentsOf: other)
    }

    /// Decimal digits of `value`, left-padded with `pad` to at least `width` characters.
    public mutating func appendDecimal<T: BinaryInteger>(_ value: T, width: Int = 0, pad: UInt8 = UInt8(ascii: "0")) {
        if value < 0 {
            append(UInt8(ascii: "-"))
            appendDecimal(UInt64(value.magnitude), width: max(0, width - 1), pad: pad)
            return
        }
        var magnitude = UInt64(value)
        // 20 digits hold UInt64.max.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var length = 0
        withUnsafeMutableBytes(of: &digits) { scratch in
            repeat {
                length += 1
                scratch[24 - length] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude != 0
            if width > length {
                for _ in 0..<(width - length) { bytes.append(pad) }
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[(24 - length)...]))
        }
    }

    /// Lowercase hexadecimal without leading zeros (RFC 5952 §4.1), `0` for zero.
    public mutating func appendHex(_ value: UInt16) {
        let digits: StaticString = "0123456789abcdef"
        let base = digits.utf8Start
        var started = false
        for shift in stride(from: 12, through: 0, by: -4) {
            let nibble = Int((value >> UInt16(shift)) & 0xF)
            if nibble != 0 || started || shift == 0 {
                started = true
                bytes.append(base[nibble])
            }
        }
    }

    /// Two lowercase hexadecimal digits.
    public mutating func appendHexByte(_ value: UInt8) {
        let digits: StaticString = "0123456789abcdef"
        let base = digits.utf8Start
        bytes.append(base[Int(value >> 4)])
        bytes.append(base[Int(value & 0xF)])
    }

    /// `text` as the inside of a JSON string (RFC 8259 §7): quotes, backslash and controls escaped.
    public mutating func appendJSONEscaped(_ text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case UInt8(ascii: "\n"): append("\\n")
            case UInt8(ascii: "\r"): append("\\r")
            case UInt8(ascii: "\t"): append("\\t")
            case 0..<0x20:
                append("\\u00")
                appendHexByte(byte)
            default: bytes.append(byte)
            }
        }
    }
}
