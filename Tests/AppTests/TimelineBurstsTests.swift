import Fixtures
import Foundation
import Shared
import Testing
@testable import App

/// The burst decision, directly: which consecutive rows are one burst.
@Suite("Bursts of alike connections")
struct TimelineBurstsTests {
    static let shop = TimelineBursts.Likeness(host: "shop.demo.test", port: 443, proto: .tcp, status: .encrypted)
    static let start = Date(timeIntervalSince1970: 1_796_004_000)

    /// Rows newest first, as a page has them: each started `step` seconds before the one above.
    static func rows(_ count: Int, _ likeness: TimelineBursts.Likeness = shop, from offset: Double = 0,
                     step: Double = 0.01) -> [TimelineBursts.Row] {
        (0..<count).map { TimelineBursts.Row(likeness: likeness, started: start - offset - Double($0) * step) }
    }

    static func bursts(_ stretches: [TimelineBursts.Stretch]) -> [Range<Int>] {
        stretches.compactMap { if case let .burst(range) = $0 { range } else { nil } }
    }

    @Test("five alike rows started together are one burst; four are four rows")
    func minimum() {
        #expect(TimelineBursts.stretches(of: Self.rows(TimelineBursts.minimumCount)) == [.burst(0..<5)])
        #expect(TimelineBursts.stretches(of: Self.rows(TimelineBursts.minimumCount - 1)) == (0..<4).map(TimelineBursts.Stretch.single))
    }

    @Test("a pause longer than the gap between two starts ends the burst; exactly the gap keeps it")
    func gap() {
        let apart = Self.rows(5) + Self.rows(5, from: 0.04 + TimelineBursts.maximumGap + 0.001)
        #expect(Self.bursts(TimelineBursts.stretches(of: apart)) == [0..<5, 5..<10])
        let spaced = Self.rows(6, step: TimelineBursts.maximumGap)
        #expect(Self.bursts(TimelineBursts.stretches(of: spaced)) == [0..<6])
        let broken = Self.rows(3) + Self.rows(3, from: 0.02 + 1.5)
        #expect(Self.bursts(TimelineBursts.stretches(of: broken)).isEmpty)
    }

    @Test("another port, protocol, status or host between alike rows breaks the burst there")
    func likeness() {
        let others = [
            TimelineBursts.Likeness(host: "shop.demo.test", port: 8443, proto: .tcp, status: .encrypted),
            TimelineBursts.Likeness(host: "shop.demo.test", port: 443, proto: .udp, status: .encrypted),
            TimelineBursts.Likeness(host: "shop.demo.test", port: 443, proto: .tcp, status: .plaintext),
            TimelineBursts.Likeness(host: "news.demo.test", port: 443, proto: .tcp, status: .encrypted),
        ]
        for other in others {
            var rows = Self.rows(9)
            rows[4] = TimelineBursts.Row(likeness: other, started: rows[4].started)
            #expect(TimelineBursts.stretches(of: rows) == (0..<9).map(TimelineBursts.Stretch.single), "\(other)")
            rows = Self.rows(11)
            rows[5] = TimelineBursts.Row(likeness: other, started: rows[5].started)
            #expect(TimelineBursts.stretches(of: rows) == [.burst(0..<5), .single(5), .burst(6..<11)], "\(other)")
        }
    }

    @Test("a row with no host or no start is never part of a burst")
    func unknown() {
        let nameless = (0..<6).map { TimelineBursts.Row(likeness: nil, started: Self.start + Double($0) * 0.01) }
        #expect(Self.bursts(TimelineBursts.stretches(of: nameless)).isEmpty)
        let timeless = (0..<6).map { _ in TimelineBursts.Row(likeness: Self.shop, started: nil) }
        #expect(Self.bursts(TimelineBursts.stretches(of: timeless)).isEmpty)
    }

    @Test("oldest-first rows (a run's summary) group the same way as newest-first ones")
    func eitherOrder() {
        let rows = Self.rows(7)
        #expect(TimelineBursts.stretches(of: rows.reversed()) == [.burst(0..<7)])
    }

    @Test("every row is covered once, in order, whatever the mix (seeded)")
    func covers() {
        var random = SeededRandom(seed: 14)
        let likenesses = [Self.shop, TimelineBursts.Likeness(host: "files.demo.test", port: 8080, proto: .tcp, status: .plaintext)]
        for _ in 0..<200 {
            var started = Self.start
            let rows = (0..<Int.random(in: 0..<40, using: &random)).map { _ in
                started -= [0.001, 0.2, 0.9, 1.2, 5][Int.random(in: 0..<5, using: &random)]
                return TimelineBursts.Row(likeness: likenesses.randomElement(using: &random), started: started)
            }
            let stretches = TimelineBursts.stretches(of: rows)
            #expect(stretches.flatMap { Array($0.rows) } == Array(rows.indices))
            for case let .burst(range) in stretches {
                #expect(range.count >= TimelineBursts.minimumCount)
                #expect(Set(range.map { rows[$0].likeness }).count == 1)
            }
        }
    }
}
