import Foundation
import TestSupport
import Testing
@testable import Shared

@Suite struct FlowStoreReadingTests {
    typealias F = StoreFixtures

    @Test func pagesOfRecentFlowsNeitherSkipNorRepeatWhenManyShareALastSeen() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        // 250 flows over only 7 distinct instants.
        let records = (0..<250).map { F.record(F.key($0), firstSeen: F.uptime(1), lastSeen: F.uptime(Double(1 + $0 % 7))) }
        let ids = try await store.write(FlowStoreBatch(flows: records)).flowIDs
        var seen: [StoredFlow] = []
        var cursor: FlowCursor?
        var pages = 0
        while true {
            let page = try await store.recentFlows(limit: 32, before: cursor)
            guard let last = page.last else { break }
            seen += page
            cursor = FlowCursor(after: last)
            pages += 1
        }
        #expect(pages == 8)
        #expect(seen.count == 250 && Set(seen.map(\.id)) == Set(ids))
        // Newest first; within one instant, the higher id first.
        let order = seen.map { ($0.lastSeen, $0.id) }
        #expect(zip(order, order.dropFirst()).allSatisfy { $0.0 > $1.0 || ($0.0 == $1.0 && $0.1 > $1.1) })
        #expect(seen.first?.lastSeen == F.date(F.uptime(7)))
        #expect(cursor.map { seen.last?.id == $0.id } == true)
        await store.close()
    }

    @Test("recent flows narrowed by status and reason in the query: pages of matches only, newest first, a flow without a reason never matching one")
    func recentFlowsNarrowedByStatusAndReason() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        // Every fifth flow QUIC, every seventh refused, the rest without a reason; statuses to match.
        let records = (0..<120).map { index -> FlowRecord in
            var record = F.record(F.key(index), lastSeen: F.uptime(Double(1 + index)))
            if index % 5 == 0 { record.inspectionReason = InspectionReason(.quic) }
            else if index % 7 == 0 {
                record.tlsStatus = .notInspectable
                record.inspectionReason = InspectionReason(.refusedCertificate, detail: "alert 48 (unknown_ca)")
            }
            return record
        }
        _ = try await store.write(FlowStoreBatch(flows: records))
        func all(statuses: Set<TLSInspectionStatus> = [], reasons: Set<InspectionReasonKind> = []) async throws -> [StoredFlow] {
            var seen: [StoredFlow] = []
            var cursor: FlowCursor?
            while true {
                let page = try await store.recentFlows(limit: 4, before: cursor, statuses: statuses, reasons: reasons)
                guard let last = page.last else { break }
                seen += page
                cursor = FlowCursor(after: last)
            }
            return seen
        }
        let quic = try await all(reasons: [.quic])
        #expect(quic.count == 24 && quic.allSatisfy { $0.inspectionReason?.kind == .quic })
        #expect(zip(quic, quic.dropFirst()).allSatisfy { $0.0.lastSeen > $0.1.lastSeen })
        let refused = try await all(statuses: [.notInspectable])
        #expect(refused.count == records.indices.filter { $0 % 5 != 0 && $0 % 7 == 0 }.count)
        #expect(refused.first?.inspectionReason == InspectionReason(.refusedCertificate, detail: "alert 48 (unknown_ca)"))
        #expect(try await all(statuses: [.encrypted], reasons: [.refusedCertificate]).isEmpty)
        #expect(try await all(reasons: [.quic, .refusedCertificate]).count == quic.count + refused.count)
        #expect(try await all(statuses: [.encrypted, .notInspectable]).count == 120)
        #expect(try await all(statuses: [.inspectionFailed]).isEmpty)
        await store.close()
    }

    @Test func aFlowsPacketsComeInTimeOrderCappedWithTheirCaptureLocations() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        let key = F.key(1)
        let stored = CaptureLocation(fileSequence: 3, recordOffset: 24)
        // Written out of order; two share an instant, so the id decides.
        let packets = [
            F.packet(key, at: F.uptime(3), direction: .inbound, length: 1_500, flags: [.psh, .ack], capture: stored),
            F.packet(key, at: F.uptime(1), length: 60, flags: [.syn]),
            F.packet(key, at: F.uptime(2), direction: .inbound, length: 52, flags: [.syn, .ack]),
            F.packet(key, at: F.uptime(2), length: 40, flags: [.ack]),
        ]
        let id = try await store.write(FlowStoreBatch(flows: [F.record(key)], packets: packets)).flowIDs[0]
        let all = try await store.packets(forFlow: id, limit: 100)
        #expect(all.map(\.length) == [60, 52, 40, 1_500])
        #expect(all.map(\.direction) == [.outbound, .inbound, .outbound, .inbound])
        #expect(all.map(\.tcpFlags) == [[.syn], [.syn, .ack], [.ack], [.psh, .ack]])
        #expect(all.map(\.capture) == [nil, nil, nil, stored])
        #expect(all.allSatisfy { $0.flowKey == key })
        #expect(all[1].id < all[2].id && all.map(\.date)[3] == F.date(F.uptime(3)))
        #expect(try await store.packets(forFlow: id, limit: 2).map(\.length) == [60, 52])
        #expect(try await store.packets(forFlow: id + 99, limit: 10).isEmpty)
        await store.close()
    }

    @Test func theHighestCaptureSequenceCountsOnlyCapturedPackets() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        #expect(try await store.highestCaptureFileSequence() == nil)
        let key = F.key(1)
        try await store.write(FlowStoreBatch(flows: [F.record(key)], packets: [F.packet(key, at: F.uptime(1))]))
        #expect(try await store.highestCaptureFileSequence() == nil)
        try await store.write(FlowStoreBatch(packets: [
            F.packet(key, at: F.uptime(2), capture: CaptureLocation(fileSequence: 7, recordOffset: 24)),
            F.packet(key, at: F.uptime(3), capture: CaptureLocation(fileSequence: 12, recordOffset: 1_000)),
            F.packet(key, at: F.uptime(4), capture: CaptureLocation(fileSequence: UInt32.max, recordOffset: 0)),
        ]))
        #expect(try await store.highestCaptureFileSequence() == 12)
        await store.close()
    }

    @Test func flowCountCountsRowsNotUpserts() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        for _ in 0..<3 { try await store.write(FlowStoreBatch(flows: (0..<5).map { F.record(F.key($0)) })) }
        #expect(try await store.flowCount() == 5)
        await store.close()
    }
}

@Suite struct FlowStoreActivityTests {
    typealias F = StoreFixtures

    @Test func thereAreNoBoundsWithoutPacketsEvenWithFlows() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        #expect(try await store.packetTimeBounds() == nil)
        try await store.upsertFlow(F.record(F.key(1)))
        #expect(try await store.packetTimeBounds() == nil)
        await store.close()
    }

    /// Packets at 0.0, 0.4, 0.9, 1.0, 1.1, 3.05 and 3.1 s, across a TCP and a UDP flow of
    /// different TLS status.
    private func fixture(_ directory: TemporaryDirectory) async throws -> FlowStore {
        let store = try F.store(in: directory)
        let (tcp, udp) = (F.key(1), F.key(2, proto: .udp))
        try await store.write(FlowStoreBatch(
            flows: [F.record(tcp, lastSeen: F.uptime(10), status: .inspected),
                    F.record(udp, lastSeen: F.uptime(20), status: .plaintext)],
            packets: [0.0, 0.4, 1.0, 3.1].map { F.packet(tcp, at: F.uptime(10 + $0)) }
                + [0.9, 1.1, 3.05].map { F.packet(udp, at: F.uptime(10 + $0)) }))
        return store
    }

    @Test func boundsSpanEveryFlowsPackets() async throws {
        let directory = TemporaryDirectory()
        let store = try await fixture(directory)
        #expect(try await store.packetTimeBounds() == F.date(F.uptime(10))...F.date(F.uptime(13.1)))
        await store.close()
    }

    @Test func countsGroupPacketsIntoBucketsFromTheRangeStartOmittingEmptyOnes() async throws {
        let directory = TemporaryDirectory()
        let store = try await fixture(directory)
        let bounds = try #require(try await store.packetTimeBounds())
        // Both ends included: the first packet and the one exactly at the end count.
        let perSecond = try await store.packetCounts(in: bounds, bucketDuration: 1)
        #expect(perSecond.map(\.packetCount) == [3, 2, 2])
        #expect(perSecond.map(\.start) == [0, 1, 3].map { F.date(F.uptime(10 + $0)) })
        // Aligned to the range's start (10.5), not to whole seconds: [10.5, 11.5) [11.5, 12.5) … [12.5, 13.5).
        let shifted = try await store.packetCounts(in: F.date(F.uptime(10.5))...bounds.upperBound, bucketDuration: 1)
        #expect(shifted.map(\.packetCount) == [3, 2])
        #expect(shifted.map(\.start) == [10.5, 12.5].map { F.date(F.uptime($0)) })
        // The range's end cuts: 3.05 is in, 3.1 is not.
        let cut = try await store.packetCounts(in: bounds.lowerBound...F.date(F.uptime(13.05)), bucketDuration: 10)
        #expect(cut.map(\.packetCount) == [6])
        #expect(try await store.packetCounts(in: F.date(F.uptime(20))...F.date(F.uptime(30)), bucketDuration: 1).isEmpty)
        await store.close()
    }

    @Test func countsFollowPrune() async throws {
        let directory = TemporaryDirectory()
        let store = try await fixture(directory)
        let bounds = try #require(try await store.packetTimeBounds())
        #expect(try await store.prune(before: F.date(F.uptime(15))) == 1)   // the TCP flow, last seen at 10
        #expect(try await store.packetCounts(in: bounds, bucketDuration: 1).map(\.packetCount) == [1, 1, 1])
        #expect(try await store.packetTimeBounds() == F.date(F.uptime(10.9))...F.date(F.uptime(13.05)))
        await store.close()
    }

    @Test func rangeEndsMeetTheStoresOwnDatesExactly() {
        // Instants a few hundred nanoseconds apart share a Date; a range from a Date takes them all.
        let instants: [Int64] = [1_796_005_130_000_000_000, 1_796_005_130_123_456_789, -1, 0, 1]
        for instant in instants {
            let date = EpochNanoseconds.date(instant)
            let first = EpochNanoseconds.first(notBefore: date), last = EpochNanoseconds.last(notAfter: date)
            #expect(first <= instant && instant <= last)
            #expect(EpochNanoseconds.date(first) == date && EpochNanoseconds.date(last) == date)
            #expect(EpochNanoseconds.date(first - 1) < date && EpochNanoseconds.date(last + 1) > date)
        }
    }
}
