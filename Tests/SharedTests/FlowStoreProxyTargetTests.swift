import Foundation
import TestSupport
import Testing
@testable import Shared

/// A proxy request's target goes into the history's own columns (schema 14) and comes back.
@Suite struct FlowStoreProxyTargetTests {
    typealias F = StoreFixtures

    static let targets = ProxyProtocol.allCases.map { ProxyTarget(proxyProtocol: $0, host: "a.example", port: 8443) }
        + [ProxyTarget(proxyProtocol: .socks5, host: "fd00::1", port: 443),
           ProxyTarget(proxyProtocol: .httpConnect, host: "exämple.com", port: 0)]

    @Test("every target comes back as it went in, and names the flow when its host is a DNS name", arguments: targets)
    func aTargetRoundTrips(target: ProxyTarget) async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        var record = F.record(F.key(1))
        record.proxyTarget = target
        try await store.upsertFlow(record)
        let flow = try #require(try await store.flow(matching: record.key))
        #expect(flow.proxyTarget == target)
        #expect(flow.name == record.name)
        // A later flush that does not know the target keeps it.
        try await store.upsertFlow(F.record(F.key(1)))
        #expect(try await store.flow(matching: record.key)?.proxyTarget == target)
        await store.close()
    }

    @Test("a history of schema 13 gains the proxy columns and loses nothing")
    func migrationFromTheSchemaBefore() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        for number in 1...3 {
            var record = F.record(F.key(number), packets: 2)
            record.sni = "s\(number).example"
            try await store.upsertFlow(record)
        }
        let before = try await store.recentFlows(limit: 10)
        await store.close()
        let old = try SQLiteConnection(path: F.databaseURL(in: directory).path, mode: .readWriteCreate)
        // Schema 13 as it was: the host order's index on the expression of its day.
        let host = try #require(FlowStore.Schema.sortIndexesOfVersion11.first { $0.name == "flows_by_host" })
        try old.execute("""
            \(F.droppingColumnsAdded(after: 13)) CREATE INDEX \(host.name) ON flows(\(host.expression)); PRAGMA user_version = 13
            """)
        #expect(try old.integer("SELECT count(*) FROM pragma_table_info('flows') WHERE name LIKE 'proxy_%'") == 0)
        old.close()
        let upgraded = try F.store(in: directory)
        let index = try SQLiteConnection(path: F.databaseURL(in: directory).path, mode: .readWriteCreate)
        #expect(try index.integer("SELECT count(*) FROM sqlite_master WHERE name = 'flows_by_host' AND sql LIKE '%proxy_name%'") == 1)
        index.close()
        let after = try await upgraded.recentFlows(limit: 10)
        #expect(after == before && after.allSatisfy { $0.proxyTarget == nil })
        var record = F.record(F.key(1))
        record.proxyTarget = ProxyTarget(proxyProtocol: .socks5, host: "t.example", port: 443)
        try await upgraded.upsertFlow(record)
        #expect(try await upgraded.flow(matching: F.key(1))?.proxyTarget == record.proxyTarget)
        await upgraded.close()
    }
}
