import App
import Foundation
import Testing

/// The web app's live-feed reader holds the ring only while somebody watches.
@Suite struct LiveFeedDemandTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("with no stream and no question the reader never starts")
    func idleNeverReads() {
        var demand = LiveFeedDemand(grace: 10)
        for second in 0..<60 { #expect(demand.tick(at: start.addingTimeInterval(Double(second)), streams: 0) == .stay) }
        #expect(!demand.reading)
    }

    @Test("an open Dashboard starts it; it lets go only once nobody has watched for the grace")
    func streamsHoldItThenGraceLetsGo() {
        var demand = LiveFeedDemand(grace: 10)
        #expect(demand.tick(at: start, streams: 2) == .start)
        #expect(demand.tick(at: start.addingTimeInterval(1), streams: 1) == .stay)
        #expect(demand.tick(at: start.addingTimeInterval(2), streams: 0) == .stay)        // a reload: still held
        #expect(demand.tick(at: start.addingTimeInterval(11), streams: 0) == .stay)
        #expect(demand.tick(at: start.addingTimeInterval(11.5), streams: 0) == .stop)
        #expect(!demand.reading)
        #expect(demand.tick(at: start.addingTimeInterval(20), streams: 1) == .start)
    }

    @Test("a page asking for the line now starts it at once, and counts as watching for the grace")
    func questionStartsIt() {
        var demand = LiveFeedDemand(grace: 10)
        #expect(demand.asked(at: start) == .start)
        #expect(demand.asked(at: start.addingTimeInterval(3)) == .stay)
        #expect(demand.tick(at: start.addingTimeInterval(12), streams: 0) == .stay)
        #expect(demand.tick(at: start.addingTimeInterval(13.5), streams: 0) == .stop)
    }
}
