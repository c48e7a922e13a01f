import Bench
import Testing

/// Medians of repeated runs and latency percentiles, worked by hand.
@Suite("BenchStatistics")
struct BenchStatisticsTests {
    @Test("the median of an odd count is the middle value, whatever the order")
    func oddMedian() {
        #expect(BenchStatistics.median([9.0, 1.0, 5.0]) == 5.0)
        #expect(BenchStatistics.median([3.5]) == 3.5)
    }

    @Test("the median of an even count is the mean of the two middle values")
    func evenMedian() {
        #expect(BenchStatistics.median([4.0, 1.0, 3.0, 10.0]) == 3.5)
    }

    @Test("no values have no median and no percentile")
    func empty() {
        #expect(BenchStatistics.median([]) == nil)
        #expect(BenchStatistics.percentile(sorted: [], 0.99) == nil)
    }

    @Test("the p99 of 1…100 is 99 and of 1…1000 is 990, by nearest rank")
    func p99() {
        let hundred = (1...100).map(Double.init)
        let thousand = (1...1_000).map(Double.init)
        #expect(BenchStatistics.percentile(sorted: hundred, 0.99) == 99)
        #expect(BenchStatistics.percentile(sorted: thousand, 0.99) == 990)
        #expect(BenchStatistics.percentile(sorted: hundred, 0.5) == 50)
    }

    @Test("percentiles at and beyond the ends give the smallest and the largest value")
    func ends() {
        let values = [2.0, 4.0, 8.0]
        #expect(BenchStatistics.percentile(sorted: values, 0) == 2)
        #expect(BenchStatistics.percentile(sorted: values, 1) == 8)
        #expect(BenchStatistics.percentile(sorted: values, 1.5) == 8)
        #expect(BenchStatistics.percentile(sorted: values, -1) == 2)
    }
}
