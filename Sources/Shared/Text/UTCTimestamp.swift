import Foundation

/// Writes instants as `2026-11-30T02:18:50.123456Z` (ISO 8601, UTC) without Foundation formatters:
/// a listing of a million packets formats a million stamps. The civil date comes from days since
/// 1970 (H. Hinnant's `civil_from_days`), cached per second because packets share seconds.
package struct UTCTimestamp: Sendable {
    /// Digits after the decimal point: 6 for microseconds, 9 for nanoseconds.
    package let fractionDigits: Int
    private var cachedSecond: Int64 = .min
    private var cachedPrefix: [UInt8] = []

    package init(fractionDigits: Int = 6) {
        precondition((0...9).contains(fractionDigits))
        self.fractionDigits = fractionDigits
    }

    package mutating func write(nanosecondsSince1970 instant: Int64, to writer: inout ASCIIWriter) {
        let second = instant >= 0 ? instant / 1_000_000_000 : (instant + 1) / 1_000_000_000 - 1
        let nanoseconds = instant - second * 1_000_000_000
        if second != cachedSecond {
            cachedSecond = second
            cachedPrefix = Self.prefix(forSecond: second)
        }
        writer.append(contentsOf: cachedPrefix)
        if fractionDigits > 0 {
            writer.append(UInt8(ascii: "."))
            var divisor: Int64 = 1
            for _ in 0..<(9 - fractionDigits) { divisor *= 10 }
            writer.appendDecimal(nanoseconds / divisor, width: fractionDigits)
        }
        writer.append(UInt8(ascii: "Z"))
    }

    /// `2027-11-30T12:00:00Z`: whole seconds, as certificates state their validity.
    package static func iso8601(_ date: Date) -> String {
        var writer = ASCIIWriter(capacity: 20)
        writeISO8601(date, to: &writer)
        return writer.string
    }

    /// `iso8601(date)` written straight into `writer`.
    package static func writeISO8601(_ date: Date, to writer: inout ASCIIWriter) {
        writer.append(contentsOf: prefix(forSecond: Int64(date.timeIntervalSince1970.rounded(.down))))
        writer.append(UInt8(ascii: "Z"))
    }

    /// `yyyy-MM-ddTHH:mm:ss` for a second since 1970.
    static func prefix(forSecond second: Int64) -> [UInt8] {
        let days = second >= 0 ? second / 86_400 : (second + 1) / 86_400 - 1
        let secondOfDay = second - days * 86_400
        // civil_from_days (proleptic Gregorian), http://howardhinnant.github.io/date_algorithms.html
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        var writer = ASCIIWriter(capacity: 20)
        writer.appendDecimal(year, width: 4)
        writer.append(UInt8(ascii: "-"))
        writer.appendDecimal(month, width: 2)
        writer.append(UInt8(ascii: "-"))
        writer.appendDecimal(day, width: 2)
        writer.append(UInt8(ascii: "T"))
        writer.appendDecimal(secondOfDay / 3_600, width: 2)
        writer.append(UInt8(ascii: ":"))
        writer.appendDecimal(secondOfDay % 3_600 / 60, width: 2)
        writer.append(UInt8(ascii: ":"))
        writer.appendDecimal(secondOfDay % 60, width: 2)
        return Array(writer.bytes)
    }
}
