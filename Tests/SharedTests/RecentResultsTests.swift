import Testing
@testable import Shared

@Suite("Results kept for inputs met again")
struct RecentResultsTests {
    /// A key whose every value hashes alike, so only equality tells two apart.
    struct Colliding: Hashable, Sendable {
        let value: Int
        func hash(into hasher: inout Hasher) { hasher.combine(0) }
    }

    @Test("An input met again is given its result without reading it again")
    func anInputMetAgainIsNotReadAgain() {
        let memo = RecentResults<Int, String>(limit: 8)
        var reads = 0
        for _ in 0..<3 {
            #expect(memo.output(for: 7) { reads += 1; return "seven \($0)" } == "seven 7")
        }
        #expect(reads == 1)
    }

    @Test("Inputs that collide in their hash each get their own result")
    func collidingInputsKeepTheirOwnResults() {
        let memo = RecentResults<Colliding, Int>(limit: 64)
        for value in 0..<50 { _ = memo.output(for: Colliding(value: value)) { $0.value * 10 } }
        for value in 0..<50 {
            #expect(memo.output(for: Colliding(value: value)) { _ in -1 } == value * 10)
        }
    }

    @Test("Past its limit it starts over, and what it let go is read again")
    func pastItsLimitItStartsOver() {
        let memo = RecentResults<Int, Int>(limit: 4)
        for value in 0..<4 { _ = memo.output(for: value) { $0 } }
        #expect(memo.count == 4)
        _ = memo.output(for: 4) { $0 }
        #expect(memo.count == 1)
        var readAgain = false
        #expect(memo.output(for: 0) { readAgain = true; return $0 } == 0)
        #expect(readAgain)
    }

    @Test("Threads reading at once each get the result of their own input")
    func threadsReadingAtOnceGetTheirOwnResults() async {
        let memo = RecentResults<Int, Int>(limit: 16)
        let wrong = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<2_000 {
                        let input = (task * 7 + round) % 40
                        if memo.output(for: input, { $0 * $0 }) != input * input { wrong += 1 }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
    }

    @Test("A certificate read through the memo reads as it does alone, for each of two of one length")
    func certificatesThroughTheMemoReadAsAlone() throws {
        typealias D = DERTestBuilder
        let one = D.certificate(subject: D.name(D.attribute(D.cn, D.utf8("one.test"))), issuer: D.name(D.attribute(D.cn, D.utf8("CA"))))
        let two = D.certificate(subject: D.name(D.attribute(D.cn, D.utf8("two.test"))), issuer: D.name(D.attribute(D.cn, D.utf8("CA"))))
        #expect(one.count == two.count)
        for der in [one, two, one, two] {
            let alone = try #require(ServerCertificateReader.certificate(fromDER: der[...], maxNameLength: 256))
            #expect(ServerCertificateReader.recentCertificate(fromDER: der[...], maxNameLength: 256) == alone)
        }
        // The name limit is part of what is read: a shorter one is not given the longer one's names.
        #expect(ServerCertificateReader.certificate(fromDER: one[...], maxNameLength: 4)
                != ServerCertificateReader.certificate(fromDER: one[...], maxNameLength: 256))
        let short = ServerCertificateReader.recentCertificate(fromDER: one[...], maxNameLength: 4)
        #expect(short == ServerCertificateReader.certificate(fromDER: one[...], maxNameLength: 4))
        #expect(short != ServerCertificateReader.recentCertificate(fromDER: one[...], maxNameLength: 256))
    }
}
