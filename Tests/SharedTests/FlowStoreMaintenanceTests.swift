import Foundation
import TestSupport
import Testing
@testable import Shared

@Suite struct FlowStoreMaintenanceTests {
    typealias F = StoreFixtures

    @Test func pruneDeletesFlowsLastSeenBeforeTheCutoffWithTheirPackets() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        let keys = (0..<6).map { F.key($0) }
        // Flow n was last seen at n seconds and has n + 1 packets.
        let ids = try await store.write(FlowStoreBatch(
            flows: keys.enumerated().map { F.record($1, firstSeen: F.uptime(0), lastSeen: F.uptime(Double($0))) },
            packets: keys.enumerated().flatMap { index, key in (0...index).map { F.packet(key, at: F.uptime(Double($0))) } }
        )).flowIDs
        // Exactly at the cutoff is not before it: flow 3 stays.
        #expect(try await store.prune(before: F.date(F.uptime(3))) == 3)
        #expect(try await store.flowCount() == 3)
        #expect(try await store.recentFlows(limit: 10).map(\.id) == Array(ids[3...].reversed()))
        for (index, id) in ids.enumerated() {
            #expect(try await store.packets(forFlow: id, limit: 10).count == (index < 3 ? 0 : index + 1))
        }
        #expect(try await store.prune(before: F.date(F.uptime(3))) == 0)
        // The rows themselves are gone, not only unreachable: 4 + 5 + 6 packets remain.
        let check = try SQLiteConnection(path: F.databaseURL(in: directory).path, mode: .readOnly)
        #expect(try check.integer("SELECT count(*) FROM packets") == 15)
        #expect(try check.integer("SELECT count(*) FROM packet_runs") == 3)
        await store.close()
    }

    @Test func clearAllEmptiesTheHistoryAndIdsKeepCounting() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        let key = F.key(1)
        let first = try await store.write(FlowStoreBatch(flows: [F.record(key)], packets: [F.packet(key, at: F.uptime(1))]))
        try await store.clearAll()
        #expect(try await store.flowCount() == 0)
        #expect(try await store.packetTimeBounds() == nil)
        #expect(try await store.recentFlows(limit: 10).isEmpty)
        let again = try await store.upsertFlow(F.record(key))
        #expect(again > first.flowIDs[0])
        await store.close()
    }

    @Test func usageCountsTheWALSidecarsAndTheFlows() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        let keys = (0..<200).map { F.key($0) }
        try await store.write(FlowStoreBatch(flows: keys.map { F.record($0) },
                                             packets: keys.map { F.packet($0, at: F.uptime(1)) }))
        let url = F.databaseURL(in: directory)
        let sizes = DatabaseFile.paths(of: url.path).map(DatabaseFile.size(of:))
        #expect(sizes[1] > 0 && sizes[2] > 0)   // an open writer keeps its -wal and -shm
        for path in DatabaseFile.paths(of: url.path) {
            #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o600, "\(path)")
        }
        let usage = try await store.usage()
        #expect(usage.flowCount == 200)
        #expect(usage.databaseBytes == sizes.reduce(0, +))
        #expect(await store.totalBytesOnDisk() == usage.databaseBytes)
        await store.close()
        // The last connection folds the WAL back and removes the sidecars.
        #expect(try F.files(in: directory) == [DataDirectoryLayout.databaseFileName])
    }

    @Test func aReaderInAnotherStoreWorksWhileTheWriterWrites() async throws {
        let directory = TemporaryDirectory()
        let writer = try F.store(in: directory)
        let reader = try F.store(in: directory)
        let batches = 60, flowsPerBatch = 20, packetsPerFlow = 10
        async let written: Void = {
            for batch in 0..<batches {
                let keys = (0..<flowsPerBatch).map { F.key(batch * flowsPerBatch + $0) }
                let time = F.uptime(Double(batch))
                try await writer.write(FlowStoreBatch(
                    flows: keys.map { F.record($0, firstSeen: time, packets: UInt64(packetsPerFlow)) },
                    packets: keys.flatMap { key in (0..<packetsPerFlow).map { F.packet(key, at: time + UInt64($0)) } }))
            }
        }()
        async let reads: Int = {
            var reads = 0
            repeat {
                let page = try await reader.recentFlows(limit: 50)
                if let flow = page.first { _ = try await reader.packets(forFlow: flow.id, limit: 100) }
                if let bounds = try await reader.packetTimeBounds() {
                    _ = try await reader.packetCounts(in: bounds, bucketDuration: 1)
                }
                reads += 1
            } while try await reader.flowCount() < batches * flowsPerBatch
            return reads
        }()
        try await written
        #expect(try await reads > 0)
        #expect(try await reader.flowCount() == batches * flowsPerBatch)
        let bounds = try #require(try await reader.packetTimeBounds())
        let total = try await reader.packetCounts(in: bounds, bucketDuration: 3_600).map(\.packetCount).reduce(0, +)
        #expect(total == batches * flowsPerBatch * packetsPerFlow)
        await writer.close()
        await reader.close()
    }
}
