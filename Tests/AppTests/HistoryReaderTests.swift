import Foundation
import Shared
import TestSupport
import Testing
@testable import App

/// The reader against a real `FlowStore` over a temp database: what matters is the coupling with
/// the store's cursor paging.
@Suite("History reader over the real store")
struct HistoryReaderTests {
    typealias H = HistoryFixtures
    static let small = HistoryPolicy(pageSize: 10, maxPagesPerLoad: 3, packetsPerFlow: 5, axisBars: 48)

    @Test("an empty history is empty without a filter, and 'no matches' with one")
    func emptyStates() async throws {
        let directory = TemporaryDirectory()
        let store = try H.store(in: directory)
        let reader = HistoryReader(store: store, policy: Self.small)
        var snapshot = await reader.snapshot
        #expect(snapshot.state == .idle && !snapshot.isEmpty)
        await reader.refresh()
        snapshot = await reader.snapshot
        #expect(snapshot.isEmpty && !snapshot.filter.isActive && !snapshot.hasMore && snapshot.scannedInLastLoad == 0)
        try await H.fill(store, count: 3)
        await reader.apply(HistoryFilter(searchText: "no-such-host"))
        snapshot = await reader.snapshot
        #expect(snapshot.isEmpty && snapshot.filter.isActive && snapshot.scannedInLastLoad == 3 && !snapshot.hasMore)
        await store.close()
    }

    @Test("paging reads every flow once, newest first, even when many share a last sighting")
    func pagingWithoutLossOrRepetition() async throws {
        let directory = TemporaryDirectory()
        let store = try H.store(in: directory)
        // 35 flows, in groups of five sharing the same last sighting.
        try await store.write(FlowStoreBatch(flows: (0..<35).map {
            H.record(H.key($0), first: 0, last: Double($0 / 5), sni: "h\($0).example")
        }))
        let reader = HistoryReader(store: store, policy: Self.small)
        await reader.refresh()
        let firstPage = await reader.snapshot
        #expect(firstPage.flows.count == 10 && firstPage.hasMore)
        while await reader.hasMore { await reader.loadMore() }
        let flows = await reader.snapshot.flows
        #expect(flows.count == 35 && Set(flows.map(\.id)).count == 35)
        let order = flows.map { ($0.stored.lastSeen, $0.id) }
        #expect(zip(order, order.dropFirst()).allSatisfy { $0.0 > $1.0 || ($0.0 == $1.0 && $0.1 > $1.1) })
        #expect(flows.first?.stored.lastSeen == H.date(6) && flows.last?.stored.lastSeen == H.date(0))
        await store.close()
    }

    @Test("a selective filter chains queries to fill a page, and continues where it stopped")
    func selectiveFilterChainsAndContinues() async throws {
        let directory = TemporaryDirectory()
        let store = try H.store(in: directory)
        try await H.fill(store, count: 200)   // every seventh is UDP: 29 of 200
        let reader = HistoryReader(store: store, policy: HistoryPolicy(pageSize: 10, maxPagesPerLoad: 8))
        await reader.apply(HistoryFilter(protocols: [.udp]))
        var snapshot = await reader.snapshot
        // Ten matches: newest UDP flows 196, 189, … 133; their rows are the scanned ones, no more.
        #expect(snapshot.flows.map { Int($0.endpoints?.local.port ?? 0) - 20_000 } == stride(from: 196, through: 133, by: -7).map { $0 })
        #expect(snapshot.scannedInLastLoad == 200 - 133 && snapshot.queriesInLastLoad == 7 && snapshot.hasMore)
        #expect(!snapshot.keptLooking(pageSize: 10))
        await reader.loadMore()
        snapshot = await reader.snapshot
        // Without re-reading: the next load starts after 133 and scans from 132 down.
        #expect(snapshot.flows.count == 20 && snapshot.scannedInLastLoad == 133 - 63)
        #expect(snapshot.flows.allSatisfy { $0.stored.key.proto == .udp })
        await store.close()
    }

    @Test("the query budget wins when it comes first: fewer than a page, more remain, and it says it kept looking")
    func theBurstCapWins() async throws {
        let directory = TemporaryDirectory()
        let store = try H.store(in: directory)
        try await H.fill(store, count: 200)
        let reader = HistoryReader(store: store, policy: Self.small)   // 10 rows a query, 3 queries
        // host-180…189 but the UDP 182 and 189 are among the newest 30; host-18 is far back.
        await reader.apply(HistoryFilter(searchText: "host-18"))
        let snapshot = await reader.snapshot
        #expect(snapshot.queriesInLastLoad == 3 && snapshot.scannedInLastLoad == 30 && snapshot.hasMore)
        #expect(snapshot.flows.count == 8 && snapshot.keptLooking(pageSize: 10))
        #expect(snapshot.flows.allSatisfy { $0.displayHost?.hasPrefix("host-18") == true })
        await store.close()
    }

    @Test("a search that cannot be read fails the load with its sentence, reading nothing")
    func refusedSearchFailsTheLoad() async throws {
        let directory = TemporaryDirectory()
        let store = try H.store(in: directory)
        try await H.fill(store, count: 3)
        let reader = HistoryReader(store: store, policy: Self.small)
        await reader.apply(HistoryFilter(searchText: "host-1 port:abc"))
        let snapshot = await reader.snapshot
        #expect(snapshot.state == .failed("'abc' in 'port:abc' is not a port: give a number from 0 to 65535 or a range such as 8000-8080"))
        #expect(snapshot.flows.isEmpty && !snapshot.isEmpty && snapshot.queriesInLastLoad == 0)
        await store.close()
    }

    @Test("a status: or program: term is narrowed by the store, so a rare one is found however far back")
    func searchTermsNarrowedByTheStore() async throws {
        let directory = TemporaryDirectory()
        let store = try H.store(in: directory)
        var rare = H.record(H.key(500), first: -10, last: -9.5, status: .inspected, sni: "rare.example")
        rare.program = .program(ProgramFacts(pid: 7, command: "wget", executable: "/usr/bin/wget", uid: 0, user: "root"))
        try await store.upsertFlow(rare)
        try await H.fill(store, count: 200)
        let reader = HistoryReader(store: store, policy: Self.small)   // 10 rows a query, 3 queries
        for search in ["status:inspected", "program:WGET", "program:wget status:inspected,plaintext -port:80"] {
            await reader.apply(HistoryFilter(searchText: search))
            let snapshot = await reader.snapshot
            #expect(snapshot.flows.map(\.displayHost) == ["rare.example"] && snapshot.scannedInLastLoad == 1 && !snapshot.hasMore, "\(search)")
        }
        // Negated, the store cannot narrow: the budget is spent on the newest rows.
        await reader.apply(HistoryFilter(searchText: "-status:encrypted -status:plaintext"))
        let snapshot = await reader.snapshot
        #expect(snapshot.flows.isEmpty && snapshot.scannedInLastLoad == 30 && snapshot.keptLooking(pageSize: 10))
        await store.close()
    }

    @Test("a date range stops the search at its start: nothing older can overlap it")
    func dateRangeStopsAtItsStart() async throws {
        let directory = TemporaryDirectory()
        let store = try H.store(in: directory)
        try await H.fill(store, count: 200)
        let reader = HistoryReader(store: store, policy: HistoryPolicy(pageSize: 100, maxPagesPerLoad: 8))
        await reader.apply(HistoryFilter(dateRange: H.date(150)...H.date(160)))
        let snapshot = await reader.snapshot
        // Flow n spans [n - 0.5, n]: 150…160 overlap, and 160.5 (flow 161 starts then) does not.
        #expect(snapshot.flows.map { Int($0.endpoints?.local.port ?? 0) - 20_000 } == Array((150...160).reversed()))
        #expect(!snapshot.hasMore && snapshot.scannedInLastLoad == 200 - 150)
        await store.close()
    }

    @Test("refresh shows new traffic; dates, names and unnamed rows come from the store")
    func refreshAfterNewTraffic() async throws {
        let directory = TemporaryDirectory()
        let store = try H.store(in: directory)
        try await H.fill(store, count: 3)
        let reader = HistoryReader(store: store, policy: Self.small)
        let stream = await reader.snapshots()
        await reader.refresh()
        #expect(await reader.snapshot.flows.count == 3)
        try await store.upsertFlow(H.record(H.key(9, proto: .udp), first: 99, last: 100))
        await reader.refresh()
        let newest = try #require(await reader.snapshot.flows.first)
        #expect(newest.stored.firstSeen == H.date(99) && newest.stored.lastSeen == H.date(100))
        #expect(newest.name == nil && newest.displayHost == "198.18.0.9" && newest.remotePort == 443)
        #expect(await reader.snapshot.flows.map(\.displayHost).dropFirst() == ["host-2.example", "host-1.example", "198.18.0.0"])
        // The stream saw the current snapshot, then each load's loading and loaded states.
        var states: [HistoryState] = []
        for await snapshot in stream {
            states.append(snapshot.state)
            if states.count == 5 { break }
        }
        #expect(states == [.idle, .loading, .loaded, .loading, .loaded])
        await store.close()
    }

    @Test("a flow's packets come ordered and capped; an unknown flow is an error, not an empty list")
    func packetsOfAFlow() async throws {
        let directory = TemporaryDirectory()
        let store = try H.store(in: directory)
        let key = H.key(1)
        try await store.write(FlowStoreBatch(flows: [H.record(key, first: 0, last: 9)],
                                             packets: [3, 1, 2, 9, 5, 7, 4].map { H.packet(key, at: Double($0)) }))
        let reader = HistoryReader(store: store, policy: Self.small)
        let id = try #require(try await store.recentFlows(limit: 1).first?.id)
        let packets = try await reader.packets(forFlow: id)
        #expect(packets.map(\.date) == [1, 2, 3, 4, 5].map { H.date($0) })
        await #expect(throws: HistoryError.unknownFlow(id + 1)) { try await reader.packets(forFlow: id + 1) }
        await store.close()
    }

    @Test("an export's page carries its cursor and leaves the list alone, unfiltered")
    func flowPageTouchesNoPagingState() async throws {
        let directory = TemporaryDirectory()
        let store = try H.store(in: directory)
        try await H.fill(store, count: 30)
        let reader = HistoryReader(store: store, policy: Self.small)
        await reader.apply(HistoryFilter(protocols: [.udp]))
        let before = await reader.snapshot
        let first = try await reader.flowPage(limit: 20, after: nil)
        let second = try await reader.flowPage(limit: 20, after: FlowCursor(after: try #require(first.last).stored))
        #expect(first.count == 20 && second.count == 10 && Set((first + second).map(\.id)).count == 30)
        #expect(await reader.snapshot == before)
        await store.close()
    }

    @Test("a history that cannot be read fails the load with its reason and keeps the list")
    func aFailedLoadSaysWhy() async throws {
        let directory = TemporaryDirectory()
        let store = try H.store(in: directory)
        try await H.fill(store, count: 3)
        let reader = HistoryReader(store: store, policy: Self.small)
        await reader.refresh()
        await store.close()
        await reader.refresh()
        let snapshot = await reader.snapshot
        guard case .failed(let reason) = snapshot.state else {
            Issue.record("a closed store loaded: \(snapshot.state)")
            return
        }
        #expect(reason.contains("the history could not be read"))
        #expect(snapshot.flows.count == 3 && !snapshot.isEmpty)
    }
}
