import Foundation

/// The timeline's activity axis: consecutive bars, oldest first. Everything else it says (span,
/// busiest, total) is derived from the bars, so it cannot contradict what is drawn.
package struct ActivityAxis: Sendable, Equatable {
    package let bars: [ActivityBar]

    package init(bars: [ActivityBar]) {
        self.bars = bars
    }

    /// No packets at all in the history: no bar. (A stretch with nothing left is bars at zero.)
    package static let empty = ActivityAxis(bars: [])

    package var isEmpty: Bool { bars.isEmpty }

    /// From the first bar's start to the last bar's end.
    package var span: ClosedRange<Date>? {
        guard let first = bars.first, let last = bars.last else { return nil }
        return first.start...last.end
    }

    /// The tallest bar's count: what the drawing scales to.
    package var busiest: Int { bars.map(\.packetCount).max() ?? 0 }

    package var totalPackets: Int { bars.reduce(0) { $0 + $1.packetCount } }

    /// The width of one bar; nil for an empty axis.
    package var bucketDuration: TimeInterval? { bars.first?.duration }

    /// The bar holding `date` ([start, end)); nil outside the axis — a tap there is ignored.
    package func bar(containing date: Date) -> ActivityBar? {
        guard let first = bars.first, let width = bucketDuration, width > 0, date >= first.start else { return nil }
        let index = Int(((date.timeIntervalSince1970 - first.start.timeIntervalSince1970) / width).rounded(.down))
        guard bars.indices.contains(index) else { return nil }
        // Floating point may land one bar off at an edge; the bar's own bounds decide.
        for candidate in [index, index - 1, index + 1] where bars.indices.contains(candidate) && bars[candidate].contains(date) {
            return bars[candidate]
        }
        return nil
    }

    /// The stretch a drag from `from` to `to` picks (either order): from the start of the bar
    /// holding one end to the end of the bar holding the other, whole bars only, each end past the
    /// axis clamped to it rather than the gesture thrown away. nil for an empty axis.
    package func sweep(from: Date, to: Date) -> ClosedRange<Date>? {
        guard let first = bars.first, let last = bars.last else { return nil }
        let low = min(max(min(from, to), first.start), last.start)
        let high = min(max(max(from, to), first.start), last.start)
        guard let startBar = bar(containing: low), let endBar = bar(containing: high) else { return nil }
        return startBar.start...endBar.end
    }
}
