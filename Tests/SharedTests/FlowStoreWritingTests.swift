import Foundation
import TestSupport
import Testing
@testable import Shared

@Suite struct FlowStoreWritingTests {
    typealias F = StoreFixtures

    @Test func datesComeBackFromTheWritersAnchorWhateverTheReadersIs() async throws {
        let directory = TemporaryDirectory()
        let writer = try F.store(in: directory)
        let key = F.key(1)
        try await writer.write(FlowStoreBatch(flows: [F.record(key, firstSeen: F.uptime(2), lastSeen: F.uptime(5.25))],
                                              packets: [F.packet(key, at: F.uptime(3.5))]))
        await writer.close()
        // Another boot: the monotonic clock restarted and the wall clock moved on.
        let reader = try F.store(in: directory, anchor: MonotonicAnchor(uptimeNanoseconds: 7,
                                                                         wallClockNanosecondsSince1970: 1_900_000_000_000_000_000))
        let flow = try #require(try await reader.flow(matching: key))
        let start = F.anchor.wallClock
        #expect(abs(flow.firstSeen.timeIntervalSince(start) - 2) < 1e-6)
        #expect(abs(flow.lastSeen.timeIntervalSince(start) - 5.25) < 1e-6)
        #expect(abs(flow.duration - 3.25) < 1e-9)
        let packets = try await reader.packets(forFlow: flow.id, limit: 10)
        #expect(packets.map(\.date) == [F.date(F.uptime(3.5))])
        await reader.close()
    }

    @Test func theSameTupleInTwoSessionsIsTwoRowsAndMatchingFindsTheNewer() async throws {
        let directory = TemporaryDirectory()
        let key = F.key(1)
        let first = try F.store(in: directory)
        let older = try await first.upsertFlow(F.record(key, packets: 1))
        await first.close()
        let second = try F.store(in: directory)
        let newer = try await second.upsertFlow(F.record(key, packets: 2))
        #expect(newer != older)
        #expect(try await second.flowCount() == 2)
        #expect(try await second.flow(matching: key)?.id == newer)
        #expect(try await second.flow(matching: key)?.packetCount == 2)
        #expect(try await second.flow(matching: F.key(2)) == nil)
        await second.close()
    }

    @Test func upsertsOfOneLifetimeSetTheTotalsToTheRecords() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        var record = F.record(F.key(1), firstSeen: F.uptime(1))
        var id: Int64 = 0
        for packet in 1...50 as ClosedRange<UInt64> {
            record.packetCount = packet
            record.bytesOut += 100
            record.bytesIn += packet.isMultiple(of: 2) ? 1_400 : 0
            record.lastSeen = F.uptime(1 + Double(packet) / 10)
            id = try await store.upsertFlow(record)
        }
        #expect(try await store.flowCount() == 1)
        let flow = try #require(try await store.flow(matching: record.key))
        #expect(flow.id == id)
        #expect(flow.packetCount == 50 && flow.bytesOut == 5_000 && flow.bytesIn == 35_000)
        #expect(flow.lastSeen == F.date(F.uptime(6)))
        await store.close()
    }

    @Test("each lifetime of a tuple is its own row: a port reused by a new connection is a new flow")
    func aNewLifetimeOfTheTupleIsItsOwnRow() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        let key = F.key(1)
        try await store.upsertFlow(F.record(key, firstSeen: F.uptime(10), lastSeen: F.uptime(11), bytesOut: 10, bytesIn: 20, packets: 2))
        let first = try await store.upsertFlow(F.record(key, firstSeen: F.uptime(10), lastSeen: F.uptime(12), bytesOut: 30, bytesIn: 40, packets: 4))
        // The connection ended; the same tuple came back as a new one, its record from zero.
        try await store.upsertFlow(F.record(key, firstSeen: F.uptime(20), lastSeen: F.uptime(21), bytesOut: 1, bytesIn: 2, packets: 1))
        let second = try await store.upsertFlow(F.record(key, firstSeen: F.uptime(20), lastSeen: F.uptime(22), bytesOut: 5, bytesIn: 6, packets: 3))
        #expect(first != second)
        #expect(try await store.flowCount() == 2)
        let flow = try #require(try await store.flow(matching: key))
        #expect(flow.id == second && flow.bytesOut == 5 && flow.bytesIn == 6 && flow.packetCount == 3)
        #expect(flow.firstSeen == F.date(F.uptime(20)) && flow.lastSeen == F.date(F.uptime(22)))
        // A late record of the first lifetime still folds into its own row.
        let late = try await store.upsertFlow(F.record(key, firstSeen: F.uptime(10), lastSeen: F.uptime(13), bytesOut: 31,
                                                       bytesIn: 40, packets: 5))
        #expect(late == first)
        #expect(try await store.flowCount() == 2)
        await store.close()
    }

    @Test func aBatchWritesItsFlowsAndTheirPacketsTogether() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        let (one, two) = (F.key(1), F.key(2, proto: .udp))
        let outcome = try await store.write(FlowStoreBatch(
            flows: [F.record(one, packets: 2), F.record(two, packets: 1)],
            packets: [F.packet(one, at: F.uptime(1)), F.packet(two, at: F.uptime(1.1)), F.packet(one, at: F.uptime(1.2))]))
        #expect(outcome.flowIDs.count == 2 && outcome.packetsWritten == 3 && outcome.orphanedPackets == 0)
        #expect(try await store.packets(forFlow: outcome.flowIDs[0], limit: 10).count == 2)
        #expect(try await store.packets(forFlow: outcome.flowIDs[1], limit: 10).map(\.flowKey) == [two])
        // A later batch may carry packets of a flow this session stored earlier, without its record.
        let later = try await store.write(FlowStoreBatch(packets: [F.packet(two, at: F.uptime(2))]))
        #expect(later.flowIDs.isEmpty && later.packetsWritten == 1 && later.orphanedPackets == 0)
        #expect(try await store.packets(forFlow: outcome.flowIDs[1], limit: 10).count == 2)
        await store.close()
    }

    @Test func aPacketWithNoFlowInThisSessionIsCountedNotLost() async throws {
        let directory = TemporaryDirectory()
        let earlier = try F.store(in: directory)
        let stale = F.key(9)
        try await earlier.upsertFlow(F.record(stale))
        await earlier.close()
        let store = try F.store(in: directory)
        let known = F.key(1)
        let outcome = try await store.write(FlowStoreBatch(
            flows: [F.record(known)],
            packets: [F.packet(known, at: F.uptime(1)), F.packet(F.key(5), at: F.uptime(2)),
                      F.packet(stale, at: F.uptime(3)), F.packet(F.key(5), at: F.uptime(4))]))
        #expect(outcome.packetsWritten == 1 && outcome.orphanedPackets == 3)
        #expect(try await store.packetTimeBounds() == F.date(F.uptime(1))...F.date(F.uptime(1)))
        await store.close()
    }

    @Test func aFlowClearedByAnotherStoreIsWrittenAgainNotLost() async throws {
        let directory = TemporaryDirectory()
        let writer = try F.store(in: directory)
        let key = F.key(1)
        let first = try await writer.write(FlowStoreBatch(flows: [F.record(key, packets: 1)],
                                                          packets: [F.packet(key, at: F.uptime(1))]))
        let other = try F.store(in: directory)
        try await other.clearAll()
        await other.close()
        // The writer still knows the flow's old id; the row is gone, so the record is inserted anew.
        let again = try await writer.write(FlowStoreBatch(flows: [F.record(key, packets: 2)],
                                                          packets: [F.packet(key, at: F.uptime(2))]))
        #expect(again.flowIDs[0] != first.flowIDs[0] && again.packetsWritten == 1)
        #expect(try await writer.flowCount() == 1)
        #expect(try await writer.flow(matching: key)?.packetCount == 2)
        await writer.close()
    }

    @Test func appendingToAFlowThatDoesNotExistFailsAndWritesNothing() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        let id = try await store.upsertFlow(F.record(F.key(1)))
        try await store.appendPackets([F.packet(F.key(1), at: F.uptime(1))], flowID: id)
        await #expect(throws: StoreError.self) {
            try await store.appendPackets([F.packet(F.key(1), at: F.uptime(2))], flowID: id + 1)
        }
        #expect(try await store.packets(forFlow: id, limit: 10).count == 1)
        #expect(try await store.packetTimeBounds()?.upperBound == F.date(F.uptime(1)))
        await store.close()
    }

    @Test func aClosedStoreSaysSo() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        await store.close()
        await #expect(throws: StoreError.closed) { try await store.flowCount() }
        await #expect(throws: StoreError.closed) { try await store.write(FlowStoreBatch()) }
    }

    @Test func aBatchsPacketsAreGroupedIntoOneRunPerFlowKeepingEachFlowsOrder() {
        let runs = PacketRuns(flowIDs: [7, 9, 7, nil, 9, 7, 3])
        #expect(runs.order == [0, 2, 5, 1, 4, 6])
        #expect(runs.runs == [PacketRuns.Run(flowID: 7, members: 0..<3), PacketRuns.Run(flowID: 9, members: 3..<5),
                              PacketRuns.Run(flowID: 3, members: 5..<6)])
        #expect(PacketRuns(flowIDs: [nil, nil]).runs.isEmpty && PacketRuns(flowIDs: []).order.isEmpty)
    }

    @Test func interleavedFlowsComeBackEachWithAllItsPacketsInOrder() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        let keys = (0..<3).map { F.key($0) }
        var ids: [Int64] = []
        // Two batches, the flows' packets interleaved one by one: each batch writes one run per flow.
        for batch in 0..<2 {
            let packets = (0..<30).map { F.packet(keys[$0 % 3], at: F.uptime(Double(batch * 30 + $0)), length: UInt32(batch * 30 + $0)) }
            ids = try await store.write(FlowStoreBatch(flows: keys.map { F.record($0) }, packets: packets)).flowIDs
        }
        for (index, id) in ids.enumerated() {
            let lengths = try await store.packets(forFlow: id, limit: 100).map(\.length)
            #expect(lengths == Array(stride(from: UInt32(index), to: 60, by: 3)))
        }
        let check = try SQLiteConnection(path: F.databaseURL(in: directory).path, mode: .readOnly)
        #expect(try check.integer("SELECT count(*) FROM packet_runs") == 6)
        await store.close()
    }
}
