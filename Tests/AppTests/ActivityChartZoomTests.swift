import Foundation
import Testing
@testable import App

/// What the activity JSON says about each bar's zoom, so a page never decides it by itself.
@Suite("Activity chart zoom in JSON")
struct ActivityChartZoomTests {
    static func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_796_004_000 + seconds) }   // a whole hour

    static func canZoom(in json: String) throws -> [Bool] {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let bars = try #require(document["bars"] as? [[String: Any]])
        return try bars.map { try #require($0["canZoom"] as? Bool) }
    }

    @Test("a busy wide bar can be entered; a quiet one and one at the finest width cannot")
    func zoomPerBar() throws {
        let wide = ActivityAxis(bars: [ActivityBar(start: Self.at(0), duration: 300, packetCount: 12),
                                       ActivityBar(start: Self.at(300), duration: 300, packetCount: 0)])
        #expect(try Self.canZoom(in: ActivityChart(axis: wide, requested: nil).json(now: Date())) == [true, false])
        let finest = ActivityAxis(bars: [ActivityBar(start: Self.at(0), duration: 1, packetCount: 5)])
        #expect(try Self.canZoom(in: ActivityChart(axis: finest, requested: nil).json(now: Date())) == [false])
    }

    @Test("the bar ceiling decides, as it does for the reader: 5 s bars are the floor with 2 bars a stretch")
    func ceilingDecides() throws {
        let axis = ActivityAxis(bars: [ActivityBar(start: Self.at(0), duration: 5, packetCount: 3)])
        // 5 s in at most 48 bars is 1 s bars: finer. In at most 2 bars it is 5 s bars again: not finer.
        #expect(try Self.canZoom(in: ActivityChart(axis: axis, requested: nil, maxBars: 48).json(now: Date())) == [true])
        #expect(try Self.canZoom(in: ActivityChart(axis: axis, requested: nil, maxBars: 2).json(now: Date())) == [false])
    }
}
