/// How a harness cuts one input into the chunks a stream scanner is fed, chosen by one byte of the
/// input, so libFuzzer explores the incremental paths (a length split across chunks, a record
/// header cut in the middle) as well as the one-chunk path.
///
///   0          one chunk
///   1          one byte at a time
///   2…255      chunk sizes drawn in 1…(byte) from a generator seeded by the byte
public struct Chunking: Sendable {
    public let selector: UInt8

    public init(selector: UInt8) {
        self.selector = selector
    }

    /// The ranges of `0..<count`, in order, that cover it exactly (no empty range; none at all
    /// for an empty input).
    public func ranges(count: Int) -> [Range<Int>] {
        guard count > 0 else { return [] }
        if selector == 0 { return [0..<count] }
        var ranges: [Range<Int>] = []
        var state = UInt32(selector) &* 2_654_435_761 | 1
        var start = 0
        while start < count {
            var size = 1
            if selector > 1 {
                // xorshift32: cheap, deterministic, enough to vary the sizes.
                state ^= state << 13
                state ^= state >> 17
                state ^= state << 5
                size = 1 + Int(state % UInt32(selector))
            }
            let end = min(count, start + size)
            ranges.append(start..<end)
            start = end
        }
        return ranges
    }
}
