import Foundation

/// The two forms of an X.509 `Time` (RFC 5280 §4.1.2.5), read into a `Date` by arithmetic alone:
/// no calendar, no locale, no clock.
///
///   UTCTime          YYMMDDHHMMSSZ    — YY ≥ 50 is 19YY, YY < 50 is 20YY (§4.1.2.5.1)
///   GeneralizedTime  YYYYMMDDHHMMSSZ  — no fractional seconds (§4.1.2.5.2)
/// Both as DER writes them: seconds present, always "Z". Anything else — another length, a
/// non-digit, a time-zone offset, a month, day, hour, minute or second out of range (a leap
/// second included, which `Date` cannot hold), a 29 February outside a leap year — is nil.
package enum CertificateTime {
    package static func date(from element: DERReader.Element) -> Date? {
        let digits = element.content
        switch element.tag {
        case .utcTime:
            guard digits.count == 13, let short = number(digits, 0, 2) else { return nil }
            return date(year: short >= 50 ? 1900 + short : 2000 + short, rest: digits, at: 2)
        case .generalizedTime:
            guard digits.count == 15, let year = number(digits, 0, 4) else { return nil }
            return date(year: year, rest: digits, at: 4)
        default:
            return nil
        }
    }

    /// MMDDHHMMSSZ from `offset` on.
    private static func date(year: Int, rest digits: ArraySlice<UInt8>, at offset: Int) -> Date? {
        guard let month = number(digits, offset, 2), let day = number(digits, offset + 2, 2),
              let hour = number(digits, offset + 4, 2), let minute = number(digits, offset + 6, 2),
              let second = number(digits, offset + 8, 2),
              digits[digits.startIndex + offset + 10] == UInt8(ascii: "Z"),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 60
        else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    /// The decimal number of `count` ASCII digits at `offset`; nil if any is not a digit.
    private static func number(_ digits: ArraySlice<UInt8>, _ offset: Int, _ count: Int) -> Int? {
        var value = 0
        for index in (digits.startIndex + offset)..<(digits.startIndex + offset + count) {
            let digit = Int(digits[index]) - Int(UInt8(ascii: "0"))
            guard (0...9).contains(digit) else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date (H. Hinnant's days_from_civil).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
