/// An append-only ASCII byte buffer: the one place numbers and addresses become text.
///
/// `IPAddress.description` and the `packets` listing both write through it, so an address reads the
/// same everywhere, and a listing of a million records formats without a `String` per field. Bytes
/// go straight into spare capacity (no per-byte `Array.append`), which the listing's speed rests on.
package struct ASCIIWriter: Sendable {
    /// `storage[0..<count]` is what was written; the rest is spare capacity.
    @usableFromInline var storage: [UInt8]
    @usableFromInline var written: Int

    /// Bytes written so far.
    package var count: Int { written }

    package init(capacity: Int = 64) {
        storage = [UInt8](repeating: 0, count: max(capacity, 16))
        written = 0
    }

    /// What was written.
    package var bytes: ArraySlice<UInt8> { storage[0..<written] }
    package var string: String { String(decoding: bytes, as: UTF8.self) }

    package mutating func removeAll() { written = 0 }

    /// Runs `body` over room for at least `length` more bytes; it returns how many it wrote.
    @inlinable
    mutating func write(reserving length: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if storage.count - written < length {
            storage.append(contentsOf: repeatElement(0, count: max(length, storage.count)))
        }
        let start = written
        written += storage.withUnsafeMutableBufferPointer { body($0.baseAddress! + start) }
    }

    @inlinable
    package mutating func append(_ byte: UInt8) {
        write(reserving: 1) { $0.pointee = byte; return 1 }
    }

    @inlinable
    package mutating func append(_ text: StaticString) {
        write(reserving: text.utf8CodeUnitCount) { Self.store(text, at: $0) }
    }

    /// Writes `text` at `start`; returns the bytes written. Byte by byte: the literals written are
    /// a few bytes, shorter than a memmove call costs.
    @inlinable
    static func store(_ text: StaticString, at start: UnsafeMutablePointer<UInt8>) -> Int {
        let length = text.utf8CodeUnitCount
        let source = text.utf8Start
        for index in 0..<length { start[index] = source[index] }
        return length
    }

    /// Disfavoured, so that a literal (`append("null")`) takes the `StaticString` overload: Swift
    /// prefers `String` for a literal otherwise, and every key and `null` of a JSON report went
    /// through a string's UTF-8 view (a few percent of `analyze`, perf).
    @_disfavoredOverload
    package mutating func append(_ text: String) {
        Self.withUTF8(text) { append(bytes: $0) }
    }

    /// `text`'s UTF-8 bytes in place: a native string's own storage, without the copy of the
    /// string that `withUTF8` (mutating) needs.
    @inlinable
    static func withUTF8(_ text: String, _ body: (UnsafeRawBufferPointer) -> Void) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { body(UnsafeRawBufferPointer($0)) }
        guard done == nil else { return }
        var text = text
        text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }

    @inlinable
    package mutating func append(bytes other: UnsafeRawBufferPointer) {
        guard let source = other.baseAddress, other.count > 0 else { return }
        write(reserving: other.count) {
            UnsafeMutableRawPointer($0).copyMemory(from: source, byteCount: other.count)
            return other.count
        }
    }

    @inlinable
    package mutating func append<C: Collection>(contentsOf other: C) where C.Element == UInt8 {
        let done: Void? = other.withContiguousStorageIfAvailable { append(bytes: UnsafeRawBufferPointer($0)) }
        if done == nil { append(contentsOf: Array(other)) }
    }

    /// Decimal digits of `value`, left-padded with `pad` to at least `width` characters.
    @inlinable
    package mutating func appendDecimal<T: BinaryInteger>(_ value: T, width: Int = 0, pad: UInt8 = UInt8(ascii: "0")) {
        if value < 0 {
            append(UInt8(ascii: "-"))
            appendDecimal(UInt64(value.magnitude), width: max(0, width - 1), pad: pad)
            return
        }
        let magnitude = UInt64(value)
        write(reserving: max(Self.decimalDigits(magnitude), width)) { Self.storeDecimal(magnitude, width: width, pad: pad, at: $0) }
    }

    @inlinable
    static func decimalDigits(_ value: UInt64) -> Int {
        var digits = 1
        var probe = value
        while probe >= 10 { probe /= 10; digits += 1 }
        return digits
    }

    /// Writes `value` in decimal at `start`, padded to `width`; returns the bytes written.
    @inlinable
    static func storeDecimal(_ value: UInt64, width: Int = 0, pad: UInt8 = UInt8(ascii: "0"),
                             at start: UnsafeMutablePointer<UInt8>) -> Int {
        let digits = decimalDigits(value)
        let length = max(digits, width)
        var remaining = value
        var index = length - 1
        for _ in 0..<digits {
            start[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining % 10)
            remaining /= 10
            index -= 1
        }
        while index >= 0 { start[index] = pad; index -= 1 }
        return length
    }

    /// Lowercase hexadecimal without leading zeros (RFC 5952 §4.1), `0` for zero.
    @inlinable
    mutating func appendHex(_ value: UInt16) {
        write(reserving: 4) { Self.storeHex(value, at: $0) }
    }

    /// Writes `value` in lowercase hexadecimal without leading zeros at `start`; returns the bytes written.
    @inlinable
    static func storeHex(_ value: UInt16, at start: UnsafeMutablePointer<UInt8>) -> Int {
        let digits = value >= 0x1000 ? 4 : value >= 0x100 ? 3 : value >= 0x10 ? 2 : 1
        for index in 0..<digits {
            start[index] = hexDigit(UInt8(truncatingIfNeeded: value >> UInt16(4 * (digits - 1 - index))) & 0xF)
        }
        return digits
    }

    /// Two lowercase hexadecimal digits.
    @inlinable
    mutating func appendHexByte(_ value: UInt8) {
        write(reserving: 2) { start in
            start[0] = Self.hexDigit(value >> 4)
            start[1] = Self.hexDigit(value & 0xF)
            return 2
        }
    }

    @inlinable
    static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &+ (nibble &- 10)
    }

    /// `text` as the inside of a JSON string (RFC 8259 §7): quotes, backslash and controls escaped.
    package mutating func appendJSONEscaped(_ text: String) {
        Self.withUTF8(text) { bytes in
            // Runs that need no escape are copied whole; a byte at a time cost a capacity check each.
            var runStart = 0
            var index = 0
            while index < bytes.count {
                // Eight bytes at a time while none needs an escape: most of a report's strings.
                if index + 8 <= bytes.count, !Self.needsEscape(bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                    index += 8
                    continue
                }
                let byte = bytes[index]
                index += 1
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                append(bytes: UnsafeRawBufferPointer(rebasing: bytes[runStart..<(index - 1)]))
                runStart = index
                switch byte {
                case UInt8(ascii: "\""): append("\\\"")
                case UInt8(ascii: "\\"): append("\\\\")
                case UInt8(ascii: "\n"): append("\\n")
                case UInt8(ascii: "\r"): append("\\r")
                case UInt8(ascii: "\t"): append("\\t")
                default:
                    append("\\u00")
                    appendHexByte(byte)
                }
            }
            append(bytes: UnsafeRawBufferPointer(rebasing: bytes[runStart...]))
        }
    }

    /// Whether any of the eight bytes of `word` is a control character, `"` or `\\` (the bytes a
    /// JSON string escapes). A byte is below 0x20 when subtracting 0x20 borrows into its top bit
    /// while its own top bit is clear; it equals `c` when its XOR with `c` is below 0x01.
    @inlinable
    static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let tops: UInt64 = 0x8080_8080_8080_8080
        func hasByteBelow(_ value: UInt64, _ bound: UInt8) -> Bool {
            (value &- ones &* UInt64(bound)) & ~value & tops != 0
        }
        return hasByteBelow(word, 0x20)
            || hasByteBelow(word ^ (ones &* UInt64(UInt8(ascii: "\""))), 1)
            || hasByteBelow(word ^ (ones &* UInt64(UInt8(ascii: "\\"))), 1)
    }
}
