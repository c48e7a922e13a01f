import Foundation
import Shared
import Testing
import TestSupport
@testable import App

/// The filter and the merge, directly.
@Suite("History filter and paging")
struct HistoryFilterTests {
    typealias H = HistoryFixtures

    /// A stored flow as the store gives it back, through a real store.
    static func flows(_ records: [FlowRecord]) async throws -> [HistoryFlow] {
        let directory = TemporaryDirectory()
        let store = try H.store(in: directory)
        for record in records { try await store.upsertFlow(record) }
        let stored = try await store.recentFlows(limit: 100)
        await store.close()
        return stored.sorted { $0.id < $1.id }.map { HistoryFlow($0) }
    }

    @Test("each dimension narrows alone, and combined they all must hold")
    func everyDimensionAloneAndCombined() async throws {
        let flows = try await Self.flows([
            H.record(H.key(1), first: 0, last: 10, status: .encrypted, sni: "Video.Example.com"),
            H.record(H.key(2, proto: .udp, port: 53), first: 5, last: 6, status: .plaintext,
                     dns: ResolvedFlowName(name: "dns.example", otherNames: ["cdn.other.net"])),
            H.record(H.key(3), first: 20, last: 30, status: .notInspectable),
        ])
        func matching(_ filter: HistoryFilter) -> [Int] { flows.indices.filter { filter.matches(flows[$0]) } }
        #expect(matching(.none) == [0, 1, 2])
        #expect(!HistoryFilter.none.isActive)
        // Search: case-insensitive substring over the name, its other candidates and the address.
        #expect(matching(HistoryFilter(searchText: "  video ")) == [0])
        #expect(matching(HistoryFilter(searchText: "OTHER.NET")) == [1])
        #expect(matching(HistoryFilter(searchText: "198.18.0.3")) == [2])
        #expect(matching(HistoryFilter(searchText: "nowhere")) == [])
        #expect(!HistoryFilter(searchText: "   ").isActive)
        #expect(matching(HistoryFilter(protocols: [.udp])) == [1])
        #expect(matching(HistoryFilter(protocols: [.tcp, .icmp])) == [0, 2])
        #expect(matching(HistoryFilter(tlsStatuses: [.plaintext, .notInspectable])) == [1, 2])
        #expect(matching(HistoryFilter(dateRange: H.date(7)...H.date(8))) == [0])
        // Combined: every dimension must hold.
        #expect(matching(HistoryFilter(searchText: "example", protocols: [.tcp], tlsStatuses: [.encrypted])) == [0])
        #expect(matching(HistoryFilter(searchText: "example", protocols: [.tcp], tlsStatuses: [.plaintext])) == [])
        #expect(HistoryFilter(protocols: [.udp]).isActive && HistoryFilter(dateRange: H.date(0)...H.date(1)).isActive)
    }

    @Test("a date range matches by overlap on all four sides, ends included")
    func rangeOverlapOnAllFourSides() async throws {
        let flow = try #require(try await Self.flows([H.record(H.key(1), first: 10, last: 20)]).first)
        func matches(_ from: Double, _ to: Double) -> Bool { HistoryFilter(dateRange: H.date(from)...H.date(to)).matches(flow) }
        #expect(matches(5, 12))     // overlaps its start
        #expect(matches(18, 25))    // overlaps its end
        #expect(matches(12, 18))    // inside it
        #expect(matches(5, 25))     // around it
        #expect(matches(20, 30) && matches(0, 10))   // touching either end
        #expect(!matches(0, 9.5) && !matches(20.5, 30))
    }

    @Test("pages merge without repeating a flow already listed, in order")
    func duplicateFreeMerge() async throws {
        let flows = try await Self.flows((0..<5).map { H.record(H.key($0), first: Double($0), last: Double($0)) })
        let merged = HistoryPaging.appending([flows[2], flows[3], flows[4]], to: [flows[0], flows[1], flows[2]])
        #expect(merged.map(\.id) == flows.map(\.id))
        #expect(HistoryPaging.appending([], to: flows).map(\.id) == flows.map(\.id))
        #expect(HistoryPaging.appending([flows[1], flows[1]], to: []).map(\.id) == [flows[1].id])
    }
}
