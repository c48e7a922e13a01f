import Foundation
import Testing
@testable import App

/// Which clock a stretch is written with: the time of day alone inside today, the date otherwise.
/// Every zone is given, never the machine's, so these hold wherever they run.
@Suite("Stretch clock: when times carry their date")
struct StretchClockTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let losAngeles = TimeZone(identifier: "America/Los_Angeles")!

    /// 2026-03-02 15:00:00 UTC (a Monday afternoon in Europe, its morning in California).
    static let now = Date(timeIntervalSince1970: 1_772_463_600)
    static func at(_ hours: Double) -> Date { now.addingTimeInterval(hours * 3_600) }

    @Test("a stretch inside today is written as times of day")
    func insideToday() {
        #expect(StretchClock.of(Self.at(-2)...Self.at(-1), now: Self.now, zone: Self.utc) == .time)
        #expect(StretchClock.of(Self.at(-15)...Self.at(0), now: Self.now, zone: Self.utc) == .time)   // from midnight
    }

    @Test("a stretch crossing midnight carries the date")
    func crossingMidnight() {
        #expect(StretchClock.of(Self.at(-16)...Self.at(-14), now: Self.now, zone: Self.utc) == .date)
    }

    @Test("a stretch of 423 days carries the date, the bug the issue quotes")
    func fourHundredTwentyThreeDays() {
        let start = Self.at(-423 * 24)
        #expect(StretchClock.of(start...Self.now, now: Self.now, zone: Self.utc) == .date)
        #expect(StretchClock.date.text(start, zone: Self.utc) == "2025-01-03 15:00:00")
        #expect(StretchClock.date.text(Self.now, zone: Self.utc) == "2026-03-02 15:00:00")
    }

    @Test("a stretch of one earlier day, however short, carries the date")
    func notToday() {
        let yesterday = Self.at(-24)
        #expect(StretchClock.of(yesterday...yesterday.addingTimeInterval(60), now: Self.now, zone: Self.utc) == .date)
    }

    @Test("a stretch that ends on the coming midnight carries the date: its ends would both read 00:00:00")
    func endingOnMidnight() {
        let midnight = Self.at(-15), nextMidnight = Self.at(9)
        #expect(StretchClock.of(midnight...nextMidnight, now: Self.now, zone: Self.utc) == .date)
        #expect(StretchClock.of(midnight...nextMidnight.addingTimeInterval(-1), now: Self.now, zone: Self.utc) == .time)
    }

    @Test("days are the viewer's zone: the same stretch is today in Berlin and crosses midnight in Los Angeles")
    func zonesDecide() {
        // 2026-03-02 07:30 to 08:30 UTC: 08:30 to 09:30 in Berlin, 23:30 to 00:30 in Los Angeles.
        let stretch = Self.at(-7.5)...Self.at(-6.5)
        #expect(StretchClock.of(stretch, now: Self.now, zone: Self.berlin) == .time)
        #expect(StretchClock.of(stretch, now: Self.now, zone: Self.losAngeles) == .date)
        #expect(StretchClock.of(stretch, now: Self.now, zone: Self.utc) == .time)
    }

    @Test("an instant is written in the viewer's zone")
    func writtenInTheZone() {
        #expect(StretchClock.time.text(Self.now, zone: Self.berlin) == "16:00:00")
        #expect(StretchClock.date.text(Self.now, zone: Self.losAngeles) == "2026-03-02 07:00:00")
        #expect(StretchClock.date.text(Self.at(-16), zone: Self.berlin) == "2026-03-02 00:00:00")
    }

    @Test("a list's instants decide as their earliest and latest do; no instant is today's clock")
    func listsOfInstants() {
        #expect(StretchClock.of([Self.at(-1), Self.at(-3), Self.at(-2)], now: Self.now, zone: Self.utc) == .time)
        #expect(StretchClock.of([Self.at(-1), Self.at(-20)], now: Self.now, zone: Self.utc) == .date)
        #expect(StretchClock.of([Date](), now: Self.now, zone: Self.utc) == .time)
    }

    @Test("a zone is taken by its name, and a name that is none is refused")
    func zoneNames() {
        #expect(StretchClock.zone(named: "Europe/Berlin") == Self.berlin)
        #expect(StretchClock.zone(named: "Mars/Olympus") == nil)
        #expect(StretchClock.zone(named: "") == nil)
    }

    @Test("the activity JSON says the axis's clock as of now, in the zone it was asked for")
    func activityJSONSaysItsClock() throws {
        let axis = ActivityAxis(bars: [ActivityBar(start: Self.at(-423 * 24), duration: 86_400 * 17, packetCount: 3)])
        let chart = ActivityChart(axis: axis, requested: nil, zone: Self.utc)
        #expect(chart.clock(now: Self.now) == .date)
        #expect(try Self.value("clock", in: chart.json(now: Self.now)) == "date")
        let today = ActivityAxis(bars: [ActivityBar(start: Self.at(-1), duration: 300, packetCount: 3)])
        #expect(try Self.value("clock", in: ActivityChart(axis: today, requested: nil, zone: Self.utc).json(now: Self.now)) == "time")
    }

    @Test("the question reads --zone, and refuses a zone that is none in one sentence")
    func questionsReadTheZone() throws {
        #expect(try TimelineQuestion.parse(["--zone", "Europe/Berlin"], now: Self.now).zone == Self.berlin)
        #expect(try ActivityQuestion.parse(["--zone", "UTC"], now: Self.now).zone == Self.utc)
        #expect(throws: QuestionFailure.self) { try TimelineQuestion.parse(["--zone", "Mars/Olympus"], now: Self.now) }
    }

    static func value(_ key: String, in json: String) throws -> String? {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return document[key] as? String
    }
}
