import Foundation
import Testing
import TestSupport
@testable import Shared

private typealias F = StoreFixtures

/// An audit session's packets as its evidence capture reads them (audit.md § Capture files of a
/// session): counted per flow and file, then listed one file at a time by record offset.
@Suite struct AuditStorePacketsTests {
    private func session(_ store: FlowStore, at second: Double) async throws -> AuditSession {
        let project = try await store.createAuditProject(AuditProjectDraft(name: "Therapy app"), at: F.date(F.uptime(0)))
        return try await store.startAuditSession(
            AuditSessionDraft(projectID: project.id, kind: .baseline, environment: AuditStoreTests.environment,
                              inspection: AuditStoreTests.inspection),
            at: F.date(F.uptime(second)))
    }

    /// One batch: each packet of `key` at its second, in its direction, captured where `capture`
    /// says; the flow first seen at `first` (its first packet's second unless told).
    private func write(_ store: FlowStore, _ key: FlowKey, first: Double? = nil,
                       _ packets: [(second: Double, direction: Direction, capture: CaptureLocation?)]) async throws {
        let first = first ?? packets.map(\.second).min() ?? 0
        let last = packets.map(\.second).max() ?? 0
        try await store.write(FlowStoreBatch(
            flows: [F.record(key, firstSeen: F.uptime(first), lastSeen: F.uptime(last), packets: UInt64(packets.count))],
            packets: packets.map { F.packet(key, at: F.uptime($0.second), direction: $0.direction, length: 60 + UInt32($0.second),
                                            capture: $0.capture) }))
    }

    private func at(_ file: UInt32, _ offset: UInt64) -> CaptureLocation { CaptureLocation(fileSequence: file, recordOffset: offset) }

    private func id(_ store: FlowStore, _ key: FlowKey) async throws -> Int64 {
        try #require(try await store.flow(matching: key)).id
    }

    @Test("packets are counted per flow and capture file, the never captured apart: never in file 0, and nothing of another session")
    func countsPerFlowAndFile() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        // Before any session: not the session's.
        try await write(store, F.key(9), [(1, .outbound, at(1, 24))])
        let made = try await session(store, at: 2)
        try await write(store, F.key(1), [(3, .outbound, at(1, 100)), (4, .inbound, at(2, 24)), (5, .inbound, nil)])
        try await write(store, F.key(2), [(6, .outbound, nil), (7, .outbound, nil)])
        // File 0 at a real offset is a real file: counted there.
        try await write(store, F.key(3), [(8, .outbound, at(0, 24)), (9, .inbound, at(2, 300))])
        // The same flow seen again.
        try await write(store, F.key(1), first: 3, [(10, .outbound, at(2, 500))])
        let (one, two, three) = (try await id(store, F.key(1)), try await id(store, F.key(2)), try await id(store, F.key(3)))
        #expect(try await store.packetCounts(inAuditSession: made.id) == [
            SessionPacketCount(flowID: one, fileSequence: nil, packetCount: 1),
            SessionPacketCount(flowID: one, fileSequence: 1, packetCount: 1),
            SessionPacketCount(flowID: one, fileSequence: 2, packetCount: 2),
            SessionPacketCount(flowID: two, fileSequence: nil, packetCount: 2),
            SessionPacketCount(flowID: three, fileSequence: 0, packetCount: 1),
            SessionPacketCount(flowID: three, fileSequence: 2, packetCount: 1),
        ])
        await store.close()
    }

    @Test("a file's packets come by record offset across flows, with their flow, direction, instant and stored length; other files and sessions are left out")
    func capturedPacketsOfOneFile() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        let made = try await session(store, at: 2)
        try await write(store, F.key(1), [(3, .outbound, at(4, 900)), (4, .inbound, at(4, 24)), (5, .inbound, nil)])
        try await write(store, F.key(2), [(6, .inbound, at(4, 400)), (7, .outbound, at(5, 24))])
        _ = try await store.endAuditSession(id: made.id, at: F.date(F.uptime(8)))
        // Another session's packet in the same file.
        let other = try await store.startAuditSession(
            AuditSessionDraft(projectID: made.projectID, kind: .baseline, environment: AuditStoreTests.environment,
                              inspection: AuditStoreTests.inspection), at: F.date(F.uptime(9)))
        try await write(store, F.key(3), [(10, .outbound, at(4, 600))])
        let (one, two) = (try await id(store, F.key(1)), try await id(store, F.key(2)))
        #expect(try await store.capturedPackets(inAuditSession: made.id, fileSequence: 4) == [
            SessionCapturedPacket(flowID: one, recordOffset: 24, direction: .inbound, date: F.date(F.uptime(4)), length: 64),
            SessionCapturedPacket(flowID: two, recordOffset: 400, direction: .inbound, date: F.date(F.uptime(6)), length: 66),
            SessionCapturedPacket(flowID: one, recordOffset: 900, direction: .outbound, date: F.date(F.uptime(3)), length: 63),
        ])
        #expect(try await store.capturedPackets(inAuditSession: made.id, fileSequence: 5).map(\.flowID) == [two])
        #expect(try await store.capturedPackets(inAuditSession: made.id, fileSequence: 0).isEmpty)
        #expect(try await store.capturedPackets(inAuditSession: other.id, fileSequence: 4).map(\.recordOffset) == [600])
        await store.close()
    }

    @Test("an unknown session is refused by both reads")
    func unknownSession() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        await #expect(throws: AuditStoreError.sessionNotFound(7)) { _ = try await store.packetCounts(inAuditSession: 7) }
        await #expect(throws: AuditStoreError.sessionNotFound(7)) { _ = try await store.capturedPackets(inAuditSession: 7, fileSequence: 1) }
        await store.close()
    }
}
