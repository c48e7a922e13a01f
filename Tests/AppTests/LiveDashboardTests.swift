import Foundation
import Testing
@testable import App
import Shared

/// The terminal dashboard's decisions: state, layout, chart, wording, pacing, names, the line form.
struct LiveDashboardTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000.5)
    static let remote = IPAddress(parsing: "198.19.0.2")!
    static let key = FlowKey(proto: .tcp, source: IPEndpoint(address: TunnelAddressing.ipv4Address, port: 40_000),
                             destination: IPEndpoint(address: remote, port: 443))

    static func snapshot(in bytesIn: [UInt64] = Array(repeating: 0, count: 60), attached: Bool = true,
                         state: RingFileState = .live) -> LiveFeedSnapshot {
        let start = 1_800_000_000 - Double(bytesIn.count - 1)
        let samples = bytesIn.enumerated().map { index, bytes in
            ThroughputSample(start: Date(timeIntervalSince1970: start + Double(index)), duration: 1, bytesIn: bytes, bytesOut: bytes / 10)
        }
        return LiveFeedSnapshot(throughput: samples, bytesIn: 5 * 1024 * 1024, bytesOut: 2048, packetCount: 1234,
                                isAttached: attached, lastAttachError: attached ? nil : .openFailed(path: "/d/live.ring", errno: ENOENT),
                                ringState: attached ? state : nil, generation: attached ? 3 : nil,
                                topTalkers: [LiveTalker(remote: remote, bytesIn: 4096, bytesOut: 100, latestFlow: key)],
                                connectionsSeen: 1, takenAt: now)
    }

    @Test("the states: no ring is 'no tunnel', a closed ring an ended session, an open one live, any other failure said")
    func states() {
        #expect(LiveDashboardState(Self.snapshot(attached: false)) == .noTunnel)
        #expect(LiveDashboardState(Self.snapshot(state: .closed)) == .sessionEnded(session: 3))
        #expect(LiveDashboardState(Self.snapshot()) == .live(session: 3))
        var broken = Self.snapshot(attached: false)
        broken.lastAttachError = .badHeader(path: "/d/live.ring", reason: "bad magic")
        #expect(LiveDashboardState(broken) == .unreadable(.badHeader(path: "/d/live.ring", reason: "bad magic")))
        #expect(LiveDashboardState.noTunnel.headline(directory: "/d").contains("sudo tunnelvision run"))
    }

    @Test("the rates are the last whole second's, in words, and the counters say dropped records only when there are some")
    func wording() {
        var values = Array(repeating: UInt64(0), count: 60)
        values[58] = 1_258_291   // 1.2 MiB in the last whole second
        values[59] = 5           // the second being filled is not the rate
        var snapshot = Self.snapshot(in: values)
        let dashboard = LiveDashboard(snapshot: snapshot, names: LiveDashboardNames(), directory: "/d")
        #expect(dashboard.ratesLine == "received 1.2 MiB/s, sent 122.9 KiB/s")
        #expect(dashboard.countersLine == "this session: 5.0 MiB received, 2.0 KiB sent, 1234 packets, 1 connection")
        snapshot.droppedRecords = 17
        #expect(LiveDashboard(snapshot: snapshot, names: LiveDashboardNames(), directory: "/d").countersLine.hasSuffix(
            "· 17 not shown (the tunnel was busier than this screen)"))
    }

    @Test("the layout gives the charts up to eight rows each, then the lists, and falls back to a compact form on a small terminal")
    func layout() {
        let big = LiveDashboardLayout(columns: 120, rows: 50, samples: 60)
        #expect(!big.isCompact && big.chartHeight == 8 && big.chartWidth == 60)
        #expect(big.talkerRows == 10 && big.talkerRows + big.recentRows + 2 * big.chartHeight + 9 == 50)
        let standard = LiveDashboardLayout(columns: 80, rows: 24, samples: 60)
        #expect(standard.chartHeight == 3 && standard.talkerRows == 5 && standard.recentRows == 4)
        let narrow = LiveDashboardLayout(columns: 50, rows: 24, samples: 60)
        #expect(narrow.chartWidth == 37)
        #expect(LiveDashboardLayout(columns: 39, rows: 30, samples: 60).isCompact)
        #expect(LiveDashboardLayout(columns: 80, rows: 13, samples: 60).isCompact)
    }

    @Test("every frame fills exactly the terminal's rows, no line wider than its columns")
    func frameFits() {
        for (columns, rows) in [(80, 24), (120, 50), (45, 14), (30, 10), (200, 15)] {
            let frame = LiveDashboard(snapshot: Self.snapshot(in: (0..<60).map { UInt64($0) * 1000 }), names: LiveDashboardNames(),
                                      directory: "/var/lib/tunnelvision").frame(LiveDashboardLayout(columns: columns, rows: rows, samples: 60))
            #expect(frame.allSatisfy { $0.count <= columns }, "\(columns)×\(rows)")
            let layout = LiveDashboardLayout(columns: columns, rows: rows, samples: 60)
            #expect(layout.isCompact ? frame.count == 4 : frame.count == rows, "\(columns)×\(rows): \(frame.count)\n\(frame.joined(separator: "\n"))")
        }
    }

    @Test("the chart scales to the busiest sample, shows any traffic as at least one level, and leaves silence blank")
    func chart() {
        let rows = LiveDashboardChart.rows([0, 1, 8, 16], height: 2)
        #expect(rows == ["   █", " ▁██"])
        #expect(LiveDashboardChart.rows([0, 0], height: 3) == ["  ", "  ", "  "])
        #expect(LiveDashboardChart.rows([UInt64.max, UInt64.max / 2], height: 1) == ["█▄"])
    }

    @Test("a host is shown by the name the history gave one of its connections, else by its address")
    func names() {
        var names = LiveDashboardNames(lookupsPerRound: 2, retryAfter: 10)
        let layout = LiveDashboardLayout(columns: 80, rows: 24, samples: 60)
        let unnamed = LiveDashboard(snapshot: Self.snapshot(), names: names, directory: "/d").frame(layout)
        #expect(unnamed.contains { $0.contains("198.19.0.2") && $0.contains("4.0 KiB received") })
        names.record(Self.key, flowID: 12, name: "example.test", remote: Self.remote, now: Self.now)
        let named = LiveDashboard(snapshot: Self.snapshot(), names: names, directory: "/d").frame(layout)
        #expect(named.contains { $0.hasPrefix("  example.test") && $0.contains("4.0 KiB received") })
    }

    @Test("names are asked for a few connections a round, never twice, and an unknown one again only after a while")
    func nameLookupsBounded() {
        var names = LiveDashboardNames(lookupsPerRound: 2, retryAfter: 10)
        let keys = (1...5).map { port in
            FlowKey(proto: .udp, source: IPEndpoint(address: TunnelAddressing.ipv4Address, port: UInt16(port)),
                    destination: IPEndpoint(address: Self.remote, port: 53))
        }
        #expect(names.due(keys + keys, now: Self.now) == [keys[0], keys[1]])
        names.record(keys[0], flowID: nil, name: nil, remote: nil, now: Self.now)
        names.record(keys[1], flowID: 2, name: "dns.test", remote: Self.remote, now: Self.now)
        #expect(names.due(keys, now: Self.now) == [keys[2], keys[3]])
        for key in keys[2...] { names.record(key, flowID: nil, name: nil, remote: nil, now: Self.now) }
        #expect(names.due(keys, now: Self.now.addingTimeInterval(5)).isEmpty)
        #expect(names.due(keys, now: Self.now.addingTimeInterval(10)) == [keys[0], keys[2]])
    }

    @Test("a frame is drawn at most once per second: an early snapshot owes one frame at the second's end, and further ones add nothing")
    func pacing() {
        var pacing = LiveDashboardPacing(interval: 1)
        let start = Self.now
        #expect(pacing.snapshotArrived(now: start) == .drawNow)
        pacing.drew(at: start)
        #expect(pacing.snapshotArrived(now: start.addingTimeInterval(0.2)) == .drawAt(start.addingTimeInterval(1)))
        #expect(pacing.snapshotArrived(now: start.addingTimeInterval(0.5)) == .alreadyOwed)
        pacing.drew(at: start.addingTimeInterval(1))
        #expect(pacing.snapshotArrived(now: start.addingTimeInterval(2.1)) == .drawNow)
    }

    @Test("the line form is one JSON object with the documented keys, and a sentence otherwise")
    func lineForms() throws {
        var values = Array(repeating: UInt64(0), count: 60)
        values[58] = 2000
        let dashboard = LiveDashboard(snapshot: Self.snapshot(in: values), names: LiveDashboardNames(), directory: "/d")
        let json = LiveDashboardLine.json(dashboard, at: Self.now)
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["time"] as? String == "2027-01-15T08:00:00Z")
        #expect(object["bytesIn"] as? Int == 5 * 1024 * 1024 && object["bytesInPerSecond"] as? Int == 2000)
        #expect(object["attached"] as? Bool == true && object["state"] as? String == "live" && object["dropped"] as? Int == 0)
        #expect(object.keys.contains("droppedNote") && object["droppedNote"] is NSNull)
        #expect(!json.contains("\n"))
        #expect(LiveDashboardLine.text(dashboard, at: Self.now).contains("received 2.0 KiB/s"))
    }

    @Test("the line names the busiest hosts of the last minute as the terminal lists them, busiest first, with the history's name and row once known")
    func lineTopTalkers() throws {
        var snapshot = Self.snapshot()
        let quiet = IPAddress(parsing: "198.19.0.9")!
        snapshot.topTalkers.append(LiveTalker(remote: quiet, bytesIn: 10, bytesOut: 5, latestFlow: Self.key))
        var names = LiveDashboardNames()
        names.record(Self.key, flowID: 12, name: "example.test", remote: Self.remote, now: Self.now)
        for (names, name, flow) in [(LiveDashboardNames(), nil, nil), (names, "example.test", 12)] as [(LiveDashboardNames, String?, Int?)] {
            let json = LiveDashboardLine.json(LiveDashboard(snapshot: snapshot, names: names, directory: "/d"), at: Self.now)
            let object = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            let talkers = try #require(object["topTalkers"] as? [[String: Any]])
            #expect(talkers.map { $0["host"] as? String } == ["198.19.0.2", "198.19.0.9"])
            #expect(talkers[0]["bytes"] as? Int == 4196 && talkers[0]["bytesIn"] as? Int == 4096 && talkers[0]["bytesOut"] as? Int == 100)
            #expect(talkers[0]["name"] as? String == name)
            #expect(talkers[0]["flow"] as? Int == flow && (flow != nil || talkers[0]["flow"] is NSNull))
        }
    }

    @Test("records the tunnel shed are said for what they are: the counters leave them out, the history and captures hold them")
    func droppedRecordsSaid() throws {
        var snapshot = Self.snapshot()
        snapshot.droppedRecords = 42
        let dashboard = LiveDashboard(snapshot: snapshot, names: LiveDashboardNames(), directory: "/d")
        let object = try #require(JSONSerialization.jsonObject(with: Data(LiveDashboardLine.json(dashboard, at: Self.now).utf8)) as? [String: Any])
        #expect(object["dropped"] as? Int == 42)
        let note = try #require(object["droppedNote"] as? String)
        #expect(note.hasPrefix("42 packets' records were not handed to this screen") && note.hasSuffix("the counters above leave them out"))
        #expect(!note.contains("still count"))
    }
}
