import Foundation
import Shared
import Testing
@testable import App

/// The axis's arithmetic, the zoom rule and stack, and the sweep, directly.
@Suite("Timeline activity axis")
struct TimelineActivityTests {
    static func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_796_004_000 + seconds) }   // a whole hour

    @Test("each span gets the finest rung that fits, and past the ladder whole days that fit")
    func rungPerSpan() {
        let ladder = TimelineActivity.bucketLadder
        #expect(ladder == [1, 5, 15, 60, 300, 900, 3_600, 10_800, 21_600, 43_200, 86_400, 604_800])
        #expect(TimelineActivity.bucketDuration(forSpan: 0, maxBars: 48) == 1)
        #expect(TimelineActivity.bucketDuration(forSpan: 47, maxBars: 48) == 1)
        #expect(TimelineActivity.bucketDuration(forSpan: 48, maxBars: 48) == 5)
        #expect(TimelineActivity.bucketDuration(forSpan: 3_600, maxBars: 48) == 300)
        #expect(TimelineActivity.bucketDuration(forSpan: 86_400, maxBars: 48) == 3_600)
        #expect(TimelineActivity.bucketDuration(forSpan: 7 * 86_400, maxBars: 48) == 21_600)
        #expect(TimelineActivity.bucketDuration(forSpan: 47 * 604_800, maxBars: 48) == 604_800)
        // Past the ladder: a year in 48 bars is 8 days a bar (365 / 47 rounded up).
        #expect(TimelineActivity.bucketDuration(forSpan: 365 * 86_400, maxBars: 48) == 8 * 86_400)
        for span in [0.0, 1, 59, 61, 3_599, 100_000, 3e6, 3e7, 3e8] {
            let width = TimelineActivity.bucketDuration(forSpan: span, maxBars: 48)
            #expect(TimelineActivity.barCount(forSpan: span, bucketDuration: width) <= 48, "\(span)")
        }
    }

    @Test("bars are zero-filled, aligned to their width, hold the closing instant and discard what is outside")
    func zeroFillAndEdges() {
        let counts = [PacketBucket(start: Self.at(-5), packetCount: 100),     // before the span: discarded
                      PacketBucket(start: Self.at(10), packetCount: 2),
                      PacketBucket(start: Self.at(40), packetCount: 7),
                      PacketBucket(start: Self.at(65), packetCount: 9),       // after the last bar: discarded
        ]
        // 12 s in → 47 s in: 5 s bars from 10 to 50 (the closing instant 47 is in [45, 50)).
        let axis = TimelineActivity.axis(counts: counts, span: Self.at(12)...Self.at(47), bucketDuration: 5, maxBars: 48)
        #expect(axis.bars.map(\.start) == stride(from: 10.0, through: 45, by: 5).map(Self.at))
        #expect(axis.bars.map(\.packetCount) == [2, 0, 0, 0, 0, 0, 7, 0])
        #expect(axis.bars.allSatisfy { $0.duration == 5 })
        // Derived from the bars.
        #expect(axis.span == Self.at(10)...Self.at(50) && axis.busiest == 7 && axis.totalPackets == 9)
        // An end on a boundary is exclusive: [10, 50) is 8 bars, not 9; an instant is one bar.
        #expect(TimelineActivity.axis(counts: [], span: Self.at(10)...Self.at(50), bucketDuration: 5, maxBars: 48).bars.count == 8)
        let instant = TimelineActivity.axis(counts: counts, span: Self.at(40)...Self.at(40), bucketDuration: 1, maxBars: 48)
        #expect(instant.bars.map(\.packetCount) == [7])
        // Never more than maxBars, whatever width it is handed.
        #expect(TimelineActivity.axis(counts: counts, span: Self.at(0)...Self.at(1_000), bucketDuration: 1, maxBars: 48).bars.count == 48)
        #expect(ActivityAxis.empty.isEmpty && ActivityAxis.empty.span == nil && ActivityAxis.empty.busiest == 0)
    }

    @Test("a bar holds [start, end); a tap outside the axis finds none")
    func barContaining() {
        let axis = TimelineActivity.axis(counts: [], span: Self.at(0)...Self.at(60), bucketDuration: 15, maxBars: 48)
        #expect(axis.bar(containing: Self.at(15))?.start == Self.at(15))
        #expect(axis.bar(containing: Self.at(14.999))?.start == Self.at(0))
        #expect(axis.bar(containing: Self.at(60)) == nil && axis.bar(containing: Self.at(-1)) == nil)
    }

    @Test("zoom: never a quiet bar, never below the finest rung, the floor following the policy; the fallback enterable")
    func zoomRule() {
        let busy = { (width: TimeInterval) in ActivityBar(start: Self.at(0), duration: width, packetCount: 3) }
        #expect(TimelineActivity.canZoom(into: busy(5), maxBars: 48))
        #expect(!TimelineActivity.canZoom(into: busy(1), maxBars: 48))
        #expect(!TimelineActivity.canZoom(into: ActivityBar(start: Self.at(0), duration: 3_600, packetCount: 0), maxBars: 48))
        // With two bars a 5 s bar is already as fine as it gets (1 s bars would need six).
        #expect(!TimelineActivity.canZoom(into: busy(5), maxBars: 2))
        #expect(TimelineActivity.canZoom(into: busy(15), maxBars: 4))
        // A fallback bar of 8 days is entered (in 6 h bars).
        #expect(TimelineActivity.canZoom(into: busy(8 * 86_400), maxBars: 48))
    }

    @Test("the zoom stack: current level, back one at a time, reset, and 'all' only past the first level")
    func zoomStack() {
        var zoom = ScrubZoom.wholeHistory
        #expect(zoom.current == nil && !zoom.isZoomed && zoom.depth == 0 && !zoom.offersFullReset)
        let (day, hour, minute) = (Self.at(0)...Self.at(86_400), Self.at(0)...Self.at(3_600), Self.at(0)...Self.at(60))
        zoom.zoom(into: day)
        #expect(zoom.current == day && zoom.isZoomed && !zoom.offersFullReset)
        zoom.zoom(into: hour)
        zoom.zoom(into: minute)
        #expect(zoom.depth == 3 && zoom.offersFullReset && zoom.current == minute)
        #expect(zoom.zoomOut() == hour)
        #expect(zoom.zoomOut() == day)
        zoom.zoom(into: hour)
        zoom.reset()
        #expect(zoom == .wholeHistory && zoom.zoomOut() == nil)
    }

    @Test("a sweep rounds to whole bars, reads alike both ways, clamps both ends and picks one bar inside one")
    func sweep() {
        let axis = TimelineActivity.axis(counts: [], span: Self.at(0)...Self.at(60), bucketDuration: 15, maxBars: 48)
        #expect(axis.sweep(from: Self.at(17), to: Self.at(31)) == Self.at(15)...Self.at(45))
        #expect(axis.sweep(from: Self.at(31), to: Self.at(17)) == Self.at(15)...Self.at(45))
        #expect(axis.sweep(from: Self.at(-100), to: Self.at(20)) == Self.at(0)...Self.at(30))
        #expect(axis.sweep(from: Self.at(50), to: Self.at(1_000)) == Self.at(45)...Self.at(60))
        #expect(axis.sweep(from: Self.at(-1), to: Self.at(61)) == axis.span)
        #expect(axis.sweep(from: Self.at(16), to: Self.at(18)) == Self.at(15)...Self.at(30))
        #expect(ActivityAxis.empty.sweep(from: Self.at(0), to: Self.at(10)) == nil)
    }
}
