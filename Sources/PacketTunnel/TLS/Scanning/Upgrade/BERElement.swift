/// One BER element's header read from kept bytes: its tag, and where its contents begin and end
/// (the end may lie past what was kept).
struct BERElement {
    let tag: UInt8
    let start: Int
    let end: Int

    init?(in bytes: [UInt8], at offset: Int) {
        guard offset + 1 < bytes.count else { return nil }
        let first = bytes[offset + 1]
        var length = Int(first)
        var start = offset + 2
        if first >= 0x80 {
            let count = Int(first & 0x7F)
            guard (1...3).contains(count), offset + 2 + count <= bytes.count else { return nil }
            length = bytes[(offset + 2)..<(offset + 2 + count)].reduce(0) { $0 << 8 | Int($1) }
            start += count
        }
        tag = bytes[offset]
        self.start = start
        end = start + length
    }
}
