import Foundation
import TestSupport
import Testing
@testable import Shared

/// A history written before sessions were kept (schema 3, where `flows.session` held the writing
/// store's open instant) migrates: each open instant becomes a session and its flows stay its own.
@Suite struct FlowStoreSessionMigrationTests {
    typealias F = StoreFixtures

    private func insertFlow(_ key: FlowKey, session: Int64, lastSeen: Int64, on connection: SQLiteConnection) throws {
        try connection.withStatement("""
            INSERT INTO flows (session, proto, addr_a, port_a, addr_b, port_b, first_seen, last_seen,
                               lifetime_first_seen, tls_status)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7, ?7, 1)
            """) { insert throws(SQLiteError) in
            insert.bind(session, at: 1)
            FlowKeyColumns(key).bind(to: insert, from: 2)
            insert.bind(lastSeen, at: 7)
            try insert.step()
        }
    }

    @Test("each open instant of a schema-3 file becomes a session, oldest first, holding exactly its flows")
    func aVersion3FileMigratesItsSessions() async throws {
        let directory = TemporaryDirectory()
        let url = F.databaseURL(in: directory)
        let old = try FlowStore.openDatabase(at: url, upTo: 3)
        // Two old stores' open instants; a tuple seen by both, and one instant that is also small.
        let earlier: Int64 = 1_796_000_000_000_000_000, later: Int64 = 1_796_000_500_000_000_000
        try insertFlow(F.key(1), session: later, lastSeen: later + 9, on: old)
        try insertFlow(F.key(7), session: earlier, lastSeen: earlier + 5, on: old)
        try insertFlow(F.key(1), session: earlier, lastSeen: earlier + 3, on: old)
        old.close()

        let store = try FlowStore(databaseURL: url, anchor: F.anchor, origin: "run after the upgrade")
        let sessions = try await store.sessions()
        #expect(sessions.count == 2)
        #expect(sessions.map(\.started) == [EpochNanoseconds.date(earlier), EpochNanoseconds.date(later)])
        #expect(sessions.map(\.ended) == [EpochNanoseconds.date(earlier + 5), EpochNanoseconds.date(later + 9)])
        #expect(sessions.allSatisfy { $0.origin == FlowStore.Schema.legacyOrigin })
        let first = try await store.allFlows(inSession: sessions[0].id)
        let second = try await store.allFlows(inSession: sessions[1].id)
        #expect(first.map(\.key) == [F.key(7), F.key(1)] && second.map(\.key) == [F.key(1)])
        #expect(second.first?.lastSeen == EpochNanoseconds.date(later + 9))

        // The upgraded file takes new sessions after the old ones.
        try await store.upsertFlow(F.record(F.key(1)))
        let new = try #require(await store.sessionID)
        #expect(new > sessions[1].id)
        #expect(try await store.allFlows(inSession: new).map(\.key) == [F.key(1)])
        #expect(try await store.flow(matching: F.key(1))?.session == new)
        await store.close()
    }

    @Test("a file made by a newer build is refused untouched, sessions or not")
    func aNewerFileIsStillRefused() throws {
        let directory = TemporaryDirectory()
        let url = F.databaseURL(in: directory)
        let newer = try FlowStore.openDatabase(at: url)
        try newer.execute("PRAGMA user_version = \(FlowStore.Schema.latestVersion + 1)")
        newer.close()
        let before = try F.bytes(of: url)
        #expect(throws: StoreError.newerSchema(found: FlowStore.Schema.latestVersion + 1,
                                               supported: FlowStore.Schema.latestVersion)) {
            try FlowStore(databaseURL: url)
        }
        #expect(try F.bytes(of: url) == before)
    }
}
