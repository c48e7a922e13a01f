import Foundation
import TestSupport
import Testing
@testable import Shared

/// The history's sessions: which flows belong to which run is the store's answer, not a guess
/// from instants.
@Suite struct FlowStoreSessionsTests {
    typealias F = StoreFixtures

    @Test("a session's flows are exactly its own, even when two sessions write at once to one file")
    func overlappingSessionsKeepTheirOwnFlows() async throws {
        let directory = TemporaryDirectory()
        let url = F.databaseURL(in: directory)
        let first = try FlowStore(databaseURL: url, anchor: F.anchor, origin: "run curl a")
        let second = try FlowStore(databaseURL: url, anchor: F.anchor, origin: "run curl b")
        // Interleaved, over the same instants, and with one 5-tuple in both sessions.
        var firstIDs: Set<Int64> = [], secondIDs: Set<Int64> = []
        for round in 0..<5 {
            let seen = F.uptime(Double(1 + round))
            firstIDs.formUnion(try await first.write(FlowStoreBatch(flows: [
                F.record(F.key(round), firstSeen: seen), F.record(F.key(99), firstSeen: F.uptime(1), lastSeen: seen),
            ])).flowIDs)
            secondIDs.formUnion(try await second.write(FlowStoreBatch(flows: [
                F.record(F.key(100 + round), firstSeen: seen), F.record(F.key(99), firstSeen: F.uptime(1), lastSeen: seen),
            ])).flowIDs)
        }
        let a = try #require(await first.sessionID), b = try #require(await second.sessionID)
        #expect(a != b)
        let firstFlows = try await first.allFlows(inSession: a)
        let secondFlows = try await second.allFlows(inSession: b)
        #expect(Set(firstFlows.map(\.id)) == firstIDs && firstFlows.count == 6)
        #expect(Set(secondFlows.map(\.id)) == secondIDs && secondFlows.count == 6)
        #expect(firstFlows.allSatisfy { $0.session == a } && secondFlows.allSatisfy { $0.session == b })
        #expect(firstFlows.filter { $0.key == F.key(99) }.count == 1 && secondFlows.filter { $0.key == F.key(99) }.count == 1)
        // Either store answers for either session: the answer is the file's.
        #expect(try await second.allFlows(inSession: a).map(\.id) == firstFlows.map(\.id))
        // A last-seen window could not have told them apart: they share every instant.
        #expect(Set(firstFlows.map(\.lastSeen)) == Set(secondFlows.map(\.lastSeen)))
        let sessions = try await first.sessions()
        #expect(sessions.map(\.id) == [a, b] && sessions.map(\.origin) == ["run curl a", "run curl b"])
        await first.close()
        await second.close()
    }

    @Test("every flow of a session comes back, page after page, with none skipped or repeated")
    func everyFlowComesBackInPages() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        // More than the 1 000 the demo used to stop at, over few distinct instants.
        let records = (0..<1_234).map { F.record(F.key($0), firstSeen: F.uptime(1), lastSeen: F.uptime(Double(1 + $0 % 5))) }
        var ids: [Int64] = []
        for batch in stride(from: 0, to: records.count, by: 300) {
            ids += try await store.write(FlowStoreBatch(flows: Array(records[batch..<min(batch + 300, records.count)]))).flowIDs
        }
        let other = try F.store(in: directory)
        try await other.upsertFlow(F.record(F.key(5_000), lastSeen: F.uptime(3)))
        let session = try #require(await store.sessionID)

        let all = try await store.allFlows(inSession: session)
        #expect(all.count == 1_234 && Set(all.map(\.id)) == Set(ids))
        let paged = try await store.allFlows(inSession: session, pageSize: 100)
        #expect(paged.map(\.id) == all.map(\.id))
        // In the order they were first written: by id.
        #expect(all.map(\.id) == ids.sorted())
        // One page of a session stops at its limit; the next starts after its last flow.
        let page = try await store.flows(inSession: session, limit: 7)
        let next = try await store.flows(inSession: session, limit: 7, after: try #require(page.last).id)
        #expect((page + next).map(\.id) == Array(all.prefix(14)).map(\.id))
        // A session that ends exactly on a page boundary still ends.
        #expect(try await store.allFlows(inSession: session, pageSize: 617).count == 1_234)
        #expect(try await store.flows(inSession: session + 99, limit: 10).isEmpty)
        await store.close()
        await other.close()
    }

    @Test("a store that only reads begins no session; one that writes begins one, and ending it dates it once")
    func sessionsBeginOnTheFirstWriteAndEndOnce() async throws {
        let directory = TemporaryDirectory()
        let reader = try F.store(in: directory)
        #expect(try await reader.recentFlows(limit: 10).isEmpty)
        #expect(await reader.sessionID == nil)
        try await reader.endSession()
        #expect(try await reader.sessions().isEmpty)

        let before = Date()
        let writer = try FlowStore(databaseURL: F.databaseURL(in: directory), anchor: F.anchor, origin: "demo")
        try await writer.upsertFlow(F.record(F.key(1)))
        let id = try #require(await writer.sessionID)
        let open = try #require(try await writer.session(id))
        #expect(open.origin == "demo" && open.ended == nil)
        #expect(open.started >= before.addingTimeInterval(-1) && open.started <= Date())
        try await writer.endSession()
        let ended = try #require(try await writer.session(id)?.ended)
        #expect(ended >= open.started)
        // Flows written after the end still belong to it; the end stays the first one.
        try await writer.upsertFlow(F.record(F.key(2)))
        await writer.close()
        #expect(try await reader.session(id)?.ended == ended)
        #expect(try await reader.allFlows(inSession: id).count == 2)
        #expect(try await reader.session(id + 1) == nil)
        await reader.close()
    }

    @Test("clearing the history keeps only the clearing store's session; pruning drops ended sessions left empty")
    func maintenanceTakesSessionsAlong() async throws {
        let directory = TemporaryDirectory()
        let old = try FlowStore(databaseURL: F.databaseURL(in: directory), anchor: F.anchor, origin: "run old")
        try await old.upsertFlow(F.record(F.key(1)))
        await old.close()
        let current = try FlowStore(databaseURL: F.databaseURL(in: directory), anchor: F.anchor, origin: "run current")
        try await current.upsertFlow(F.record(F.key(2)))
        // Every flow is older than the cutoff, and the old session has ended: both go.
        #expect(try await current.prune(before: Date().addingTimeInterval(86_400 * 365 * 10)) == 2)
        #expect(try await current.sessions().map(\.origin) == ["run current"])   // still open: kept
        try await current.upsertFlow(F.record(F.key(3)))
        let another = try FlowStore(databaseURL: F.databaseURL(in: directory), anchor: F.anchor, origin: "run another")
        try await another.upsertFlow(F.record(F.key(4)))
        try await current.clearAll()
        #expect(try await current.sessions().map(\.origin) == ["run current"])
        #expect(try await current.flowCount() == 0)
        await current.close()
        await another.close()
    }
}
