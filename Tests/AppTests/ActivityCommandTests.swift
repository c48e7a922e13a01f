import Foundation
import Shared
import TestSupport
import Testing

/// `tunnelvision activity`, the built binary over a history filled through the real store.
@Suite(.serialized) struct ActivityCommandTests {
    typealias H = HistoryFixtures
    typealias C = HistoryCommandSupport

    /// Instants (seconds after the anchor, a whole hour) of the packets written.
    static let instants: [Double] = [0.5, 1, 2, 59, 60, 61, 600, 1_200.5, 3_599]

    static func history() async throws -> TemporaryDirectory {
        let directory = TemporaryDirectory("tv-activity")
        let store = try H.store(in: directory)
        let flows = instants.indices.map { H.record(H.key($0), first: instants[$0], last: instants[$0]) }
        try await store.write(FlowStoreBatch(flows: flows, packets: instants.indices.map { H.packet(H.key($0), at: instants[$0]) }))
        await store.close()
        return directory
    }

    @Test("the whole history: each bar's count is the packets in it, the bar width and total said")
    func wholeHistory() async throws {
        let directory = try await Self.history()
        let result = try C.run(["activity", "--data-dir", directory.url.path, "--json"])
        #expect(result.status == 0, "\(result.err)")
        let document = try C.pythonJSON(result.out)
        #expect(document["bucketSeconds"] as? Int == 300 && document["ignoresFilters"] as? Bool == true)
        #expect(document["totalPackets"] as? Int == Self.instants.count && document["busiest"] as? Int == 6)
        let bars = try #require(document["bars"] as? [[String: Any]])
        #expect(bars.count == 12 && bars.first?["start"] as? String == "2026-11-30T02:00:00.000000Z")
        for (index, bar) in bars.enumerated() {
            let start = Double(index * 300)
            #expect(bar["packets"] as? Int == Self.instants.filter { $0 >= start && $0 < start + 300 }.count)
            #expect(bar["seconds"] as? Int == 300)
        }
        let text = try C.run(["activity", "--data-dir", directory.url.path])
        let lines = text.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "activity of all connections, whatever the filter: 12 bars of 5 min, 2026-11-30 02:00:00 to 2026-11-30 03:00:00 UTC")
        #expect(lines[1].hasPrefix("2026-11-30 02:00:00  6  ") && lines[1].hasSuffix(String(repeating: "█", count: 40)))
        #expect(lines.last == "9 packets in all, busiest bar 6")
    }

    @Test("--from/--to zooms into a stretch; a stretch with nothing left says so; an empty history teaches")
    func zoomedAndEmpty() async throws {
        let directory = try await Self.history()
        let zoomed = try C.pythonJSON(try C.run(["activity", "--data-dir", directory.url.path, "--json",
                                                 "--from", "2026-11-30T02:00:00Z", "--to", "2026-11-30T02:01:00Z"]).out)
        #expect(zoomed["bucketSeconds"] as? Int == 5 && (zoomed["bars"] as? [Any])?.count == 12)
        #expect((zoomed["bars"] as? [[String: Any]])?.map { $0["packets"] as? Int ?? -1 } == [3] + Array(repeating: 0, count: 10) + [1])
        let gone = try C.run(["activity", "--data-dir", directory.url.path, "--from", "2026-11-29T00:00:00Z", "--to", "2026-11-29T01:00:00Z"])
        #expect(gone.status == 0 && gone.out.contains("0 packets in all") && gone.out.contains("nothing is stored in this stretch"))
        let half = try C.run(["activity", "--data-dir", directory.url.path, "--from", "1h"])
        #expect(half.status == 2 && half.err.contains("give --from and --to together"))
        let empty = TemporaryDirectory("tv-activity")
        try await H.store(in: empty).close()
        let none = try C.run(["activity", "--data-dir", empty.url.path, "--json"])
        let document = try C.pythonJSON(none.out)
        #expect(none.status == 0 && (document["bars"] as? [Any])?.isEmpty == true && document["span"] is NSNull)
        #expect(try C.run(["activity", "--data-dir", empty.url.path]).out.hasPrefix("no packets recorded yet"))
    }
}
