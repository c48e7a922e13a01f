import Foundation
import Shared

/// The activity axis's arithmetic: which bar width a stretch gets and how stored counts become
/// bars. Bars are aligned to whole multiples of their width since 1970 (UTC), so a bar is the
/// same bar at every zoom that shows it, and its count is a sum of the store's kept counts.
package enum TimelineActivity {
    /// 1 s, 5 s, 15 s, 1 min, 5 min, 15 min, 1 h, 3 h, 6 h, 12 h, 1 day, 1 week.
    package static let bucketLadder: [TimeInterval] = [1, 5, 15, 60, 300, 900, 3_600, 10_800, 21_600, 43_200, 86_400, 604_800]

    /// The finest rung.
    static var finestBucket: TimeInterval { bucketLadder[0] }

    /// Fewer than two bars cannot show a stretch that straddles a boundary.
    static func usableBars(_ maxBars: Int) -> Int { max(2, maxBars) }

    /// The finest rung whose bars cover `seconds` in at most `maxBars` wherever the stretch starts;
    /// past the ladder (a history longer than `maxBars - 1` weeks), whole days wide enough to fit.
    package static func bucketDuration(forSpan seconds: TimeInterval, maxBars: Int) -> TimeInterval {
        let bars = usableBars(maxBars)
        if let rung = bucketLadder.first(where: { barCount(forSpan: seconds, bucketDuration: $0) <= bars }) { return rung }
        let days = (max(0, seconds) / Double(bars - 1) / 86_400).rounded(.up)
        return max(1, days) * 86_400
    }

    /// The most bars of `bucketDuration` a stretch of `seconds` can touch, wherever it starts:
    /// one for an instant, else its length in bars rounded up, plus one for a start mid-bar.
    package static func barCount(forSpan seconds: TimeInterval, bucketDuration: TimeInterval) -> Int {
        guard seconds > 0, bucketDuration > 0 else { return 1 }
        let bars = (seconds / bucketDuration).rounded(.up)
        return bars >= Double(Int.max - 1) ? Int.max : Int(bars) + 1
    }

    /// Whether tapping `bar` can show it finer: never a quiet bar (its zero is a statement, not a
    /// gap), never one already at the finest width `maxBars` allows (the axis inside would have
    /// bars as wide as it). The floor follows `maxBars`, not only the ladder.
    package static func canZoom(into bar: ActivityBar, maxBars: Int) -> Bool {
        !bar.isQuiet && bucketDuration(forSpan: bar.duration, maxBars: maxBars) < bar.duration
    }

    /// The bars from the one holding `span`'s start to the one holding its end — the end is
    /// exclusive when it falls on a boundary (the bar after it holds nothing of the stretch); an
    /// instant gets its one bar — zero-filled, never more than `maxBars`. `counts` are placed in
    /// the bar holding their start; those outside the bars are discarded, not moved.
    package static func axis(counts: [PacketBucket], span: ClosedRange<Date>,
                            bucketDuration: TimeInterval, maxBars: Int) -> ActivityAxis {
        let width = max(1, bucketDuration.rounded(.up))
        let lower = span.lowerBound.timeIntervalSince1970, upper = span.upperBound.timeIntervalSince1970
        let firstIndex = (lower / width).rounded(.down)
        let wanted = upper > lower ? Int((upper / width).rounded(.up) - firstIndex) : 1
        let count = min(max(1, wanted), usableBars(maxBars))
        let first = firstIndex * width
        var packets = [Int](repeating: 0, count: count)
        for bucket in counts {
            let offset = ((bucket.start.timeIntervalSince1970 - first) / width).rounded(.down)
            guard offset >= 0, offset < Double(count) else { continue }
            packets[Int(offset)] += bucket.packetCount
        }
        return ActivityAxis(bars: packets.enumerated().map { index, packets in
            ActivityBar(start: Date(timeIntervalSince1970: first + Double(index) * width), duration: width, packetCount: packets)
        })
    }
}
