import Testing
@testable import Shared

@Suite struct KeptStreamTests {
    /// "abc", 4 not kept, "de", 2 not kept, then 1 more not kept (joined), "f".
    static var sample: KeptStream {
        var stream = KeptStream()
        stream.append(Array("abc".utf8), dropped: 4)
        stream.append(Array("de".utf8), dropped: 2)
        stream.append([], dropped: 1)
        stream.append(Array("f".utf8), dropped: 0)
        return stream
    }

    @Test("records append kept bytes and gaps at their places, gaps at one place joined")
    func appending() {
        let stream = Self.sample
        #expect(stream.bytes == Array("abcdef".utf8))
        #expect(stream.gaps == [KeptStream.Gap(at: 3, length: 4), KeptStream.Gap(at: 5, length: 3)])
        #expect(stream.carried == 13 && stream.hasGaps)
        var joined = KeptStream(Array("x".utf8))
        joined.append(contentsOf: stream)
        #expect(joined.bytes == Array("xabcdef".utf8) && joined.gaps.map(\.at) == [4, 6])
    }

    @Test("taking passes over the conversation's own positions: the front kept, gaps counted, kept bytes after a gap counted, the end said")
    func taking() {
        var reader = KeptStream.Reader(Self.sample)
        #expect(Array(reader.run) == Array("abc".utf8))
        let first = reader.take(2)
        #expect(Array(first.front) == Array("ab".utf8) && first.isWhole)
        let across = reader.take(7)   // "c", the 4-byte gap, "de"
        #expect(Array(across.front) == Array("c".utf8) && across.notKept == 4 && across.keptAfterGap == 2 && across.missing == 0)
        #expect(reader.gapHere == 3)
        let partOfGap = reader.take(2)
        #expect(partOfGap.front.isEmpty && partOfGap.notKept == 2 && reader.gapHere == 1)
        let rest = reader.takeRest()
        #expect(rest.notKept == 1 && rest.keptAfterGap == 1 && rest.missing == 0 && rest.carriedCount == 2)
        #expect(reader.atEnd)
        #expect(reader.take(5).missing == 5)
    }

    @Test("dropping a prefix keeps the gaps in place; a gap inside the prefix refuses; a run stops at the next gap")
    func prefixAndRuns() {
        let stream = Self.sample
        let rest = stream.droppingFirst(2)
        #expect(rest?.bytes == Array("cdef".utf8) && rest?.gaps.map(\.at) == [1, 3])
        #expect(stream.droppingFirst(4) == nil)
        #expect(Array(stream.run(from: 1)) == Array("bc".utf8))
        #expect(stream.run(from: 3).isEmpty)
        #expect(Array(stream.run(from: 5)).isEmpty)
    }
}
