/// The resolutions the history keeps its packet counts at (`FlowStore+Activity`): per second, per
/// minute and per hour, each a small table maintained with the packets, so an activity axis reads
/// at most a few thousand rows at any zoom instead of every packet of the stretch.
///
/// Slots are whole multiples of the grain since 1970 (UTC), so every bar of an axis whose width
/// and start are whole multiples of a grain is a sum of that grain's slots — exactly.
package enum ActivityGrain: Int64, Sendable, CaseIterable {
    case second = 1
    case minute = 60
    case hour = 3_600

    package var seconds: Int64 { rawValue }

    /// The table holding the counts at this grain.
    var table: String {
        switch self {
        case .second: "activity_seconds"
        case .minute: "activity_minutes"
        case .hour: "activity_hours"
        }
    }

    /// The coarsest grain that tiles a bucket of `width` seconds starting at `start` (seconds since
    /// 1970): the fewest rows to read.
    static func coarsest(tiling width: Int64, from start: Int64) -> ActivityGrain {
        allCases.reversed().first { width % $0.seconds == 0 && start % $0.seconds == 0 } ?? .second
    }

    /// The slot of this grain holding the second `second` (floored, also before 1970).
    func slot(ofSecond second: Int64) -> Int64 {
        Self.floorDivide(second, seconds)
    }

    /// The second since 1970 (floored) of an instant in nanoseconds.
    static func second(ofNanoseconds nanoseconds: Int64) -> Int64 {
        floorDivide(nanoseconds, 1_000_000_000)
    }

    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }

    /// SQL for `expression` divided by `divisor`, floored (SQLite's `/` truncates toward zero).
    static func floorDivideSQL(_ expression: String, _ divisor: Int64) -> String {
        "((\(expression) - (((\(expression)) % \(divisor)) + \(divisor)) % \(divisor)) / \(divisor))"
    }

    /// SQL for the second (floored) of the nanosecond column `column`.
    static func secondSQL(of column: String) -> String { floorDivideSQL(column, 1_000_000_000) }
}
