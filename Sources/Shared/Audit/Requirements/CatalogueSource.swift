/// The document a requirement catalogue transcribes (audit.md § Requirement catalogue).
package struct CatalogueSource: Sendable, Hashable {
    /// The document's designation, `BSI TR-03161-1`.
    package let document: String
    package let title: String
    package let version: String
    /// The document's date as written, `yyyy-MM-dd`: a calendar date, not an instant.
    package let date: String
    /// SHA-256 of the document's PDF, 64 lowercase hex digits; nil when the catalogue names no
    /// digest because none was verified against the PDF (never a made-up one).
    package let sha256: String?

    package init(document: String, title: String, version: String, date: String, sha256: String? = nil) {
        self.document = document
        self.title = title
        self.version = version
        self.date = date
        self.sha256 = sha256
    }

    /// Whether `text` is a real date written `yyyy-MM-dd` (proleptic Gregorian).
    static func isCalendarDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.map(\.utf8.count) == [4, 2, 2],
              parts.allSatisfy({ $0.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1...12).contains(month)
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }

    /// Whether `text` is a SHA-256 digest as the catalogue writes it: 64 lowercase hex digits.
    static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
        }
    }
}
