import Foundation

/// How a screen writes the instants of a stretch it shows — the Timeline's rows, the activity
/// axis's caption, a sweep's note, the scrub bar's spoken interval: the time of day alone when the
/// whole stretch lies inside today, else the date with it. "25 bars of 1 day, 00:00:00 to
/// 00:00:00" cannot be read; "3 Jan 2025 00:00:00 to 2 Mar 2026 00:00:00" can.
///
/// Days are the viewer's: the page sends its own time zone (a browser elsewhere than the
/// machine), the command uses the machine's. `now` is an input, so the rule is tested at any hour.
package enum StretchClock: String, Sendable, Equatable, CaseIterable {
    /// `14:03:07`: every instant of the stretch is today.
    case time
    /// `2025-01-03 14:03:07`: the stretch crosses a midnight, or is not today.
    case date

    /// The clock for `stretch`: `.time` only when it starts and ends inside the day that holds
    /// `now` in `zone`. A stretch that ends on the coming midnight carries the date, since its end
    /// would read `00:00:00` like its start.
    package static func of(_ stretch: ClosedRange<Date>, now: Date, zone: TimeZone) -> StretchClock {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        guard let today = calendar.dateInterval(of: .day, for: now) else { return .date }
        return today.start <= stretch.lowerBound && stretch.upperBound < today.end ? .time : .date
    }

    /// The clock for the instants a list shows (its rows' times); `.time` for none.
    package static func of(_ instants: some Sequence<Date>, now: Date, zone: TimeZone) -> StretchClock {
        var earliest: Date?, latest: Date?
        for instant in instants {
            earliest = min(earliest ?? instant, instant)
            latest = max(latest ?? instant, instant)
        }
        guard let earliest, let latest else { return .time }
        return of(earliest...latest, now: now, zone: zone)
    }

    /// `instant` as this clock writes it in `zone`: `14:03:07` or `2025-01-03 14:03:07`.
    package func text(_ instant: Date, zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant)
        func two(_ value: Int?) -> String { let text = "\(value ?? 0)"; return text.count < 2 ? "0" + text : text }
        let time = "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
        switch self {
        case .time: return time
        case .date: return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) \(time)"
        }
    }

    /// `"Europe/Berlin"` → that zone; nil for a name the system's zone database does not hold.
    package static func zone(named name: String) -> TimeZone? {
        guard !name.isEmpty, name.count <= 64 else { return nil }
        return TimeZone(identifier: name)
    }
}
