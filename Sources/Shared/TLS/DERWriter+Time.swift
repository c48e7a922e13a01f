import Foundation

/// The two X.509 `Time` forms (X.690 §11.7, RFC 5280 §4.1.2.5), from a `Date` by arithmetic alone
/// (no calendar, no locale), whole seconds, always "Z" — what `CertificateTime` reads back.
extension DERWriter {
    /// UTCTime YYMMDDHHMMSSZ for the years 1950 through 2049, GeneralizedTime YYYYMMDDHHMMSSZ for
    /// any other: RFC 5280 §4.1.2.5's rule for certificate validity.
    package mutating func time(_ date: Date) throws(DERWriterFailure) {
        let civil = try CivilTime(date)
        if (1950...2049).contains(civil.year) {
            append(.utcTime, content: Array((civil.digits.dropFirst(2)).utf8))
        } else {
            append(.generalizedTime, content: Array(civil.digits.utf8))
        }
    }

    /// GeneralizedTime YYYYMMDDHHMMSSZ whatever the year.
    package mutating func generalizedTime(_ date: Date) throws(DERWriterFailure) {
        append(.generalizedTime, content: Array(try CivilTime(date).digits.utf8))
    }

    /// UTCTime YYMMDDHHMMSSZ; only 1950…2049 can be told apart in two digits.
    package mutating func utcTime(_ date: Date) throws(DERWriterFailure) {
        let civil = try CivilTime(date)
        guard (1950...2049).contains(civil.year) else { throw .timeOutOfRange(date.timeIntervalSince1970) }
        append(.utcTime, content: Array((civil.digits.dropFirst(2)).utf8))
    }
}

/// A UTC date and time of day in whole seconds (the fraction dropped toward the past).
private struct CivilTime {
    let year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int

    init(_ date: Date) throws(DERWriterFailure) {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        // Years 0…9999: −62 167 219 200 s is 0000-01-01, 253 402 300 799 s is 9999-12-31T23:59:59.
        guard seconds >= -62_167_219_200, seconds <= 253_402_300_799 else { throw .timeOutOfRange(seconds) }
        let total = Int(seconds)
        let days = Int((Double(total) / 86_400).rounded(.down))
        let inDay = total - days * 86_400
        (year, month, day) = Self.civil(fromDays: days)
        hour = inDay / 3_600
        minute = inDay % 3_600 / 60
        second = inDay % 60
    }

    /// YYYYMMDDHHMMSSZ.
    var digits: String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yyyy = String(repeating: "0", count: 4 - String(year).count) + String(year)
        return yyyy + two(month) + two(day) + two(hour) + two(minute) + two(second) + "Z"
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (H. Hinnant's civil_from_days, the
    /// inverse of the days_from_civil `CertificateTime` reads with).
    private static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
