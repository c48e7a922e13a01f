import Foundation
import Shared
import Testing
@testable import App

/// What `--since`, `--until`, `--from`, `--to` and `--after` accept.
@Suite("History time and cursor input")
struct HistoryTimeInputTests {
    static let now = Date(timeIntervalSince1970: 1_796_004_000)

    @Test("ISO-8601 UTC instants, bare dates and ages back from now; anything else refused")
    func instantsAndAges() {
        func parse(_ text: String) -> TimeInterval? { HistoryTimeInput.parse(text, now: Self.now)?.timeIntervalSince1970 }
        #expect(parse("2026-11-30T02:00:00Z") == 1_796_004_000)
        #expect(parse("2026-11-30T02:00:03.25Z") == 1_796_004_003.25)
        #expect(parse("2026-11-30") == 1_795_996_800)
        #expect(parse("90s") == 1_796_004_000 - 90 && parse("10m") == 1_796_004_000 - 600)
        #expect(parse("2h") == 1_796_004_000 - 7_200 && parse("1d") == 1_796_004_000 - 86_400 && parse("1w") == 1_796_004_000 - 604_800)
        for bad in ["yesterday", "", "10", "-5m", "2026-13-01", "1y", "m"] { #expect(parse(bad) == nil, "\(bad)") }
    }

    @Test("a cursor reads back as the position it was written from; garbage is refused")
    func cursorText() {
        let cursor = FlowCursor(lastSeenNanoseconds: 1_796_004_000_123_456_789, id: 42)
        #expect(HistoryCursorText.text(cursor) == "1796004000123456789-42")
        #expect(HistoryCursorText.parse("1796004000123456789-42").map { [$0.order == .newestFirst, $0.cursor == cursor] } == [true, true])
        for bad in ["", "42", "a-1", "1-0", "1--2", "-1-2", "1-2-3"] { #expect(HistoryCursorText.parse(bad) == nil, "\(bad)") }
    }
}
