import Foundation
import Shared
import TestSupport
import Testing
@testable import App

/// `tunnelvision flows` with a burst in the page: one row in the text, every flow still in the
/// JSON with the burst beside them — through a real store and the history reader's paging.
@Suite("The timeline listing summarises a burst")
struct TimelineListingBurstsTests {
    typealias H = HistoryFixtures
    static let files = IPEndpoint(address: IPAddress(parsing: "198.19.0.13")!, port: 8080)
    static let filesName = ResolvedFlowName(name: "files.demo.test", otherNames: [])

    /// `count` HTTP connections to files.demo.test:8080 started 10 ms apart from 100 s, each 0.2 s
    /// long, 1 000 bytes in, 100 out, 6 packets; then one TLS connection to shop.demo.test at 120 s.
    static func history(burst count: Int, in directory: TemporaryDirectory) async throws -> FlowStore {
        let store = try H.store(in: directory)
        for number in 0..<count {
            let key = FlowKey(proto: .tcp, source: IPEndpoint(address: TunnelAddressing.ipv4Address, port: UInt16(30_000 + number)),
                              destination: files)
            let first = 100 + Double(number) * 0.01
            try await store.upsertFlow(H.record(key, first: first, last: first + 0.2, status: .plaintext, dns: filesName,
                                                bytes: (out: 100, in: 1_000), packets: 6))
        }
        try await store.upsertFlow(H.record(H.key(7), first: 120, last: 121, sni: "shop.demo.test", bytes: (out: 500, in: 4_000),
                                            packets: 12))
        return store
    }

    static func listing(_ store: FlowStore, pageSize: Int, after: FlowCursor? = nil) async -> TimelineListing {
        var policy = HistoryPolicy.default
        policy.pageSize = pageSize
        let reader = HistoryReader(store: store, policy: policy)
        await reader.apply(.none, after: after)
        return TimelineListing(snapshot: await reader.snapshot,
                               query: .init(dataDirectory: "/d", limit: pageSize, after: after), pageSize: pageSize)
    }

    /// One page of 100 over a fresh history of `count` burst connections and the TLS one.
    static func listing(burst count: Int) async throws -> TimelineListing {
        let directory = TemporaryDirectory()
        let store = try await history(burst: count, in: directory)
        let listing = await listing(store, pageSize: 100)
        await store.close()
        return listing
    }

    @Test("fifty parallel requests are one row naming their ids, with their sums, and a line that says how to open one")
    func text() async throws {
        let listing = try await Self.listing(burst: 50)
        let ids = listing.snapshot.flows.map(\.id)
        let burstIDs = ids.dropFirst()
        let low = try #require(burstIDs.min()), high = try #require(burstIDs.max())
        #expect(high - low == 49)
        let lines = listing.text().components(separatedBy: "\n")
        #expect(lines.count == 7, "\(lines)")
        let row = HistoryCommandSupport.words(lines[2])
        #expect(row == ["\(low)–\(high)", "2026-11-30", "02:01:40", "-", "50", "×", "files.demo.test", "(dns)", "8080", "TCP",
                        "48.8", "KiB", "4.9", "KiB", "300", "690", "ms", "not", "encrypted"])
        #expect(lines[4] == "\(low)–\(high): a burst of 50 connections to files.demo.test:8080 started within 490 ms, "
                + "48.8 KiB received, 4.9 KiB sent; open one with: tunnelvision flow \(ids[1]) --data-dir /d")
        #expect(lines[6] == "51 connections shown (scanned 51); nothing older remains")
    }

    @Test("the JSON still lists every flow, and lists the burst beside them with its ids in the flows' order")
    func json() async throws {
        let listing = try await Self.listing(burst: 50)
        let document = listing.json(now: Date())
        let ids = listing.snapshot.flows.map(\.id)
        #expect(try PythonJSON.value(document, "flows") .components(separatedBy: "\"id\"").count == 52)
        #expect(try PythonJSON.value(document, "bursts.0.ids") == "[" + ids.dropFirst().map { "\($0)" }.joined(separator: ", ") + "]")
        #expect(try PythonJSON.value(document, "bursts.0.count") == "50")
        #expect(try PythonJSON.value(document, "bursts.0.host") == "\"files.demo.test\"")
        #expect(try PythonJSON.value(document, "bursts.0.nameSource") == "\"dns\"")
        #expect(try PythonJSON.value(document, "bursts.0.nameSourceText") == "\"from a DNS answer for its address\"")
        #expect(try PythonJSON.value(document, "bursts.0.port") == "8080")
        #expect(try PythonJSON.value(document, "bursts.0.bytesIn") == "50000")
        #expect(try PythonJSON.value(document, "bursts.0.startedWithinSeconds") == "0.49")
        #expect(try PythonJSON.value(document, "bursts.0.firstSeen") == "\"2026-11-30T02:01:40.000000Z\"")
        #expect(try PythonJSON.value(document, "bursts").components(separatedBy: "\"ids\"").count == 2)
    }

    @Test("a burst the page's end cuts: this page summarises what it holds, the next page's four show one by one")
    func paging() async throws {
        let directory = TemporaryDirectory()
        let store = try await Self.history(burst: 10, in: directory)
        let first = await Self.listing(store, pageSize: 7)
        let cursor = try #require(first.snapshot.nextCursor)
        let second = await Self.listing(store, pageSize: 7, after: cursor)
        await store.close()
        #expect(TimelineBurst.bursts(of: first.snapshot.flows).map(\.count) == [6])
        #expect(TimelineBurst.bursts(of: second.snapshot.flows).isEmpty)
        #expect(second.snapshot.flows.count == 4)
        #expect(try PythonJSON.value(second.json(now: Date()), "bursts") == "[]")
        let rows = second.text().components(separatedBy: "\n").dropFirst().prefix { !$0.isEmpty }
        #expect(rows.count == 4 && rows.allSatisfy { $0.contains("files.demo.test (dns)") && !$0.contains("×") }, "\(rows)")
    }

    @Test("four alike connections are four rows, and the JSON's bursts is empty")
    func belowMinimum() async throws {
        let listing = try await Self.listing(burst: TimelineBursts.minimumCount - 1)
        #expect(!listing.text().contains("burst"))
        #expect(listing.text().components(separatedBy: "\n").count == 1 + 5 + 2)
        #expect(try PythonJSON.value(listing.json(now: Date()), "bursts") == "[]")
    }
}
