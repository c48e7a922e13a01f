/// UTF-8 text built in units (a separator and attribute type, one escaped character) that are
/// kept whole or not at all: the text is cut at a unit's edge, never inside an escape or a
/// multi-byte character, and once one unit did not fit nothing more is added.
struct BoundedText {
    private(set) var bytes: [UInt8] = []
    let limit: Int
    private(set) var isTruncated = false

    init(limit: Int) {
        self.limit = max(0, limit)
        bytes.reserveCapacity(min(self.limit, 256))
    }

    /// Bytes that can still be appended.
    var room: Int { isTruncated ? 0 : limit - bytes.count }

    /// Appends what `write` writes, if it fits under the limit.
    mutating func unit(_ write: (inout [UInt8]) -> Void) {
        guard !isTruncated else { return }
        let mark = bytes.count
        write(&bytes)
        if bytes.count > limit {
            bytes.removeSubrange(mark...)
            isTruncated = true
        }
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }

    static func appendDecimal(_ value: UInt64, to bytes: inout [UInt8]) {
        var digits: (UInt64, Int) = (1, 1)
        while value / digits.0 >= 10 {
            digits.0 *= 10
            digits.1 += 1
        }
        var divisor = digits.0
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8((value / divisor) % 10))
            divisor /= 10
        }
    }

    static func appendHex(_ byte: UInt8, to bytes: inout [UInt8]) {
        let digits: StaticString = "0123456789ABCDEF"
        digits.withUTF8Buffer { hex in
            bytes.append(hex[Int(byte >> 4)])
            bytes.append(hex[Int(byte & 0x0F)])
        }
    }
}
