import Foundation

/// Instants on disk are nanoseconds since 1970; what leaves the store is a `Date`, which holds a
/// `Double` and so cannot keep every nanosecond. These conversions define the meeting point: a
/// stored instant *is in* a date range when the `Date` the store reports for it is, so a range
/// built from the store's own dates always contains the rows they came from.
enum EpochNanoseconds {
    /// The date the store reports for `nanoseconds` since 1970. Monotonic in its argument.
    static func date(_ nanoseconds: Int64) -> Date {
        let (seconds, remainder) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        return Date(timeIntervalSince1970: Double(seconds) + Double(remainder) / 1e9)
    }

    /// The first instant whose reported date is not before `date`.
    static func first(notBefore date: Date) -> Int64 {
        // Bracket the answer around the estimate, then halve: `date(_:)` steps by a few hundred
        // nanoseconds at today's magnitudes, so this takes a dozen probes.
        let estimate = clampedNanoseconds(date.timeIntervalSince1970 * 1e9)
        var below = estimate, above = estimate, step: Int64 = 1_024
        while self.date(below) >= date {
            guard below > .min else { return .min }
            below = below.subtractingSaturated(step)
            step = step.multipliedSaturated(2)
        }
        step = 1_024
        while self.date(above) < date {
            guard above < .max else { return .max }
            above = above.addingSaturated(step)
            step = step.multipliedSaturated(2)
        }
        // date(below) < date <= date(above)
        while UInt64(bitPattern: above &- below) > 1 {
            let middle = below &+ Int64(bitPattern: UInt64(bitPattern: above &- below) / 2)
            if self.date(middle) < date { below = middle } else { above = middle }
        }
        return above
    }

    /// The last instant whose reported date is not after `date`.
    static func last(notAfter date: Date) -> Int64 {
        let next = Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.nextUp)
        return first(notBefore: next).subtractingSaturated(1)
    }

    private static func clampedNanoseconds(_ value: Double) -> Int64 {
        guard value.isFinite else { return value > 0 ? .max : .min }
        if value >= 9.2e18 { return .max }
        if value <= -9.2e18 { return .min }
        return Int64(value.rounded(.down))
    }
}

private extension Int64 {
    func addingSaturated(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    func subtractingSaturated(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other > 0 ? .min : .max) : difference
    }

    func multipliedSaturated(_ other: Int64) -> Int64 {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? .max : product
    }
}
