/// The little arithmetic the network benchmarks share: medians of repeated runs and percentiles
/// of latency samples. Pure, so it is tested apart from any network.
package enum BenchStatistics {
    /// The middle value (the mean of the two middle ones for an even count), or nil for none.
    /// Unsorted input is fine; NaN is not expected (figures come from counters and clocks).
    package static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// The nearest-rank percentile of ascending `sorted` values: the smallest value with at least
    /// `fraction` (0…1) of all values at or below it. Nil for no values.
    package static func percentile(sorted: [Double], _ fraction: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let clamped = min(max(fraction, 0), 1)
        let rank = Int((clamped * Double(sorted.count)).rounded(.up))
        return sorted[max(rank, 1) - 1]
    }
}
