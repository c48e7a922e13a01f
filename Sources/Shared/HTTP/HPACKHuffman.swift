/// RFC 7541 §5.2 and Appendix B: the static Huffman code of HPACK's string literals, decoded.
///
/// The code is canonical — within one length the codes run up in symbol order, and each length's
/// first code follows the previous length's last — so the 257 code lengths define it whole (the
/// tests check every symbol against Appendix B's examples and Python's `hpack` as the oracle).
enum HPACKHuffman {
    /// Appendix B's bit length of each symbol's code: bytes 0–255, then EOS (256).
    static let codeLengths: [UInt8] = [
        13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,
        28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
        6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,
        5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
        13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
        7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
        15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,
        6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
        20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,
        24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
        22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,
        21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
        26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,
        19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
        20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,
        26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
        30
    ]

    static let endOfString = 256

    /// Per code length: the first code, and where that length's symbols start in `symbols`.
    private struct Canonical {
        var firstCode = [UInt32](repeating: 0, count: 32)
        var count = [Int](repeating: 0, count: 32)
        var firstIndex = [Int](repeating: 0, count: 32)
        /// Every symbol ordered by (length, symbol): the canonical order.
        var symbols: [Int] = []
    }

    private static let canonical: Canonical = {
        var table = Canonical()
        table.symbols = (0...endOfString).sorted { (codeLengths[$0], $0) < (codeLengths[$1], $1) }
        for length in codeLengths { table.count[Int(length)] += 1 }
        var code: UInt32 = 0, index = 0
        for length in 1..<32 {
            code = (code + UInt32(table.count[length - 1])) << 1
            table.firstCode[length] = code
            table.firstIndex[length] = index
            index += table.count[length]
        }
        return table
    }()

    /// The bytes a Huffman-coded literal stands for. §5.2: padding is at most 7 bits, the most
    /// significant bits of EOS (all ones); EOS itself inside a string is an error.
    static func decode(_ bytes: ArraySlice<UInt8>) throws(HPACKError) -> [UInt8] {
        let table = canonical
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 8 / 5)
        var code: UInt32 = 0, length = 0
        for byte in bytes {
            for shift in stride(from: 7, through: 0, by: -1) {
                code = code << 1 | UInt32(byte >> UInt8(shift) & 1)
                length += 1
                guard length < 31 else { throw .huffman("a code longer than 30 bits") }
                let first = table.firstCode[length]
                guard table.count[length] > 0, code >= first, code - first < UInt32(table.count[length]) else { continue }
                let symbol = table.symbols[table.firstIndex[length] + Int(code - first)]
                guard symbol != endOfString else { throw .huffman("EOS inside a string") }
                out.append(UInt8(symbol))
                code = 0
                length = 0
            }
        }
        guard length <= 7 else { throw .huffman("padding longer than 7 bits") }
        guard code == (UInt32(1) << length) - 1 else { throw .huffman("padding that is not the start of EOS") }
        return out
    }
}
