/// A bounds-checked cursor over bytes borrowed for one parse: every read answers nil rather than
/// step past the end, so a lying length becomes a typed outcome in the caller, never an over-read.
/// Reads are big-endian, as everything in TLS is (RFC 8446 §3.3).
struct TLSByteReader {
    private let bytes: UnsafeRawBufferPointer
    private(set) var offset: Int

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        offset = 0
    }

    var remaining: Int { bytes.count - offset }
    var isAtEnd: Bool { offset == bytes.count }

    mutating func readUInt8() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func readUInt16() -> UInt16? {
        guard remaining >= 2 else { return nil }
        defer { offset += 2 }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    mutating func readUInt24() -> Int? {
        guard remaining >= 3 else { return nil }
        defer { offset += 3 }
        return Int(bytes[offset]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
    }

    /// The next `count` bytes, without copying.
    mutating func readBytes(_ count: Int) -> UnsafeRawBufferPointer? {
        guard count >= 0, remaining >= count else { return nil }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
    }

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, remaining >= count else { return false }
        offset += count
        return true
    }

    /// A TLS vector `opaque x<…>` (RFC 8446 §3.4): a big-endian length of `lengthBytes` (1, 2 or
    /// 3) and that many bytes, returned as a reader of their own. Nil when the length runs past
    /// the end.
    mutating func readVector(lengthBytes: Int) -> TLSByteReader? {
        let start = offset
        let length: Int?
        switch lengthBytes {
        case 1: length = readUInt8().map(Int.init)
        case 2: length = readUInt16().map(Int.init)
        default: length = readUInt24()
        }
        guard let length, let content = readBytes(length) else {
            offset = start
            return nil
        }
        return TLSByteReader(content)
    }

    /// The unread bytes, without copying.
    var rest: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[offset...]) }
}
