import Foundation
import Shared

extension HistoryReader {
    /// The activity axis over the whole history, or over `range` as given (not clamped to what is
    /// stored: a stretch retention took comes back as bars at zero). Counts every connection's
    /// packets **whatever the list's filter**. `.empty` when no packet is stored at all.
    package func activity(in range: ClosedRange<Date>? = nil) async throws(HistoryError) -> ActivityAxis {
        let maxBars = policy.axisBars
        do {
            guard let bounds = try await store.packetTimeBounds() else { return .empty }
            // The whole history: from the second of its first packet to the end of its last one's.
            let span = range ?? Date(timeIntervalSince1970: bounds.lowerBound.timeIntervalSince1970.rounded(.down))
                ... Date(timeIntervalSince1970: bounds.upperBound.timeIntervalSince1970.rounded(.down) + 1)
            let seconds = span.upperBound.timeIntervalSince(span.lowerBound)
            let width = TimelineActivity.bucketDuration(forSpan: seconds, maxBars: maxBars)
            let counts = try await store.packetCounts(
                fromSecond: Int64(span.lowerBound.timeIntervalSince1970.rounded(.down)),
                toSecond: Int64(span.upperBound.timeIntervalSince1970.rounded(.up)) + (seconds > 0 ? 0 : 1),
                bucketSeconds: Int64(width))
            return TimelineActivity.axis(counts: counts, span: span, bucketDuration: width, maxBars: maxBars)
        } catch {
            throw HistoryError(error)
        }
    }

    /// Whether `bar` can be entered, against this reader's `policy.axisBars`.
    package nonisolated func canZoom(into bar: ActivityBar) -> Bool {
        TimelineActivity.canZoom(into: bar, maxBars: policy.axisBars)
    }

    /// Whether any bar of `axis` can be entered.
    package nonisolated func canZoomFurther(in axis: ActivityAxis) -> Bool {
        axis.bars.contains(where: canZoom(into:))
    }
}
