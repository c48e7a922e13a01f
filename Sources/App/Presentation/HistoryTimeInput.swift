import Foundation

/// The instants a person types for `--since`, `--until`, `--from`, `--to`: an ISO-8601 UTC
/// instant (`2026-12-01T15:00:00Z`, a fraction allowed, or a bare date `2026-12-01` for its
/// midnight UTC) or an age counted back from now (`90s`, `10m`, `2h`, `1d`, `1w`).
package enum HistoryTimeInput {
    /// What the help and the refusal say is accepted.
    package static let accepted = "an ISO-8601 UTC instant (2026-12-01T15:00:00Z, or 2026-12-01) or an age (10m, 2h, 1d ago)"

    static let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]

    /// The instant, or nil when `text` is neither form.
    package static func parse(_ text: String, now: Date) -> Date? {
        let text = text.trimmingCharacters(in: .whitespaces)
        if let unit = text.last.flatMap({ units[$0] }), let amount = Double(text.dropLast()),
           amount.isFinite, amount >= 0, text.dropLast().allSatisfy({ $0.isNumber || $0 == "." }) {
            return now.addingTimeInterval(-amount * unit)
        }
        return instant(text)
    }

    private static func instant(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds],
                                                       [.withFullDate]] {
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
