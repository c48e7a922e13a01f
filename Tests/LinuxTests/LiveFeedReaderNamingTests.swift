import App
import AppLinux
import Foundation
import Shared
import TestSupport
import Testing

/// The live reader over a real data directory — a real ring the test produces into, a real SQLite
/// history beside it — names the busiest hosts and gives each its history row, so the line
/// `live --json` prints and `/api/live` serves (both `LiveQuestion.line` over the reader's
/// snapshot) can link a talker to its Flow Inspector.
@Suite("live-feed reader naming from the history")
struct LiveFeedReaderNamingTests {
    static let remote = IPAddress(parsing: "198.19.0.2")!
    static let key = FlowKey(proto: .tcp, source: IPEndpoint(address: TunnelAddressing.ipv4Address, port: 40_000),
                             destination: IPEndpoint(address: remote, port: 443))

    static func talkers(_ line: String) throws -> [[String: Any]] {
        let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return try #require(object["topTalkers"] as? [[String: Any]])
    }

    @Test("the live line's top talker carries the history's name and the row its Flow Inspector opens, once the history holds it")
    func talkerNamedAndLinked() async throws {
        let work = TemporaryDirectory("live-naming")
        let data = work.url
        let producer = try RingBufferProducer(fileURL: DataDirectoryLayout.ring(in: data), slotCount: 1024)
        var policy = LiveFeedPolicy.default
        policy.idlePollInterval = .milliseconds(50)
        let reader = LiveFeedReader(dataDirectory: data, policy: policy, wakeup: RingFutexWakeup(dataDirectory: data))
        await reader.start()
        defer { Task { await reader.stop() } }
        // The host keeps talking while the test waits: under the whole suite the wait can outlast
        // the reader's one-minute window, which would forget a host heard only once.
        func talk() {
            let now = MonotonicAnchor.now().uptimeNanoseconds
            for direction in [Direction.outbound, .inbound] {
                producer.push(PackedPacketMeta(PacketMeta(timestamp: now, flowKey: Self.key, direction: direction,
                                                          length: 1400, tcpFlags: [], capture: nil)))
            }
        }
        let started = MonotonicAnchor.now().uptimeNanoseconds
        #expect(await eventually(within: .seconds(30)) {
            talk()
            return await reader.snapshot.topTalkers.first?.remote == Self.remote
        })

        // The talker moved bytes before the history wrote its connection: no name, nothing to open.
        var line = LiveQuestion.line(await reader.snapshot, directory: data.path, at: Date())
        var first = try #require(try Self.talkers(line).first)
        #expect(first["host"] as? String == "198.19.0.2")
        #expect(first["name"] is NSNull && first["flow"] is NSNull, "\(line)")

        let store = try FlowStore(databaseURL: DataDirectoryLayout.database(in: data))
        var record = FlowRecord(key: Self.key, firstSeen: started, tlsStatus: .encrypted)
        record.lastSeen = started + 1
        record.sni = "named.test"
        let id = try await store.upsertFlow(record)
        let named = await eventually(within: .seconds(60)) {
            talk()
            line = LiveQuestion.line(await reader.snapshot, directory: data.path, at: Date())
            guard let talker = try? Self.talkers(line).first else { return false }
            return (talker["flow"] as? NSNumber)?.int64Value == id
        }
        first = try #require(try Self.talkers(line).first)
        #expect(named, "the reader never asked the history: \(line)")
        #expect(first["name"] as? String == "named.test", "\(line)")
        #expect((first["flow"] as? NSNumber)?.int64Value == id, "\(line)")
        await store.close()
    }
}
