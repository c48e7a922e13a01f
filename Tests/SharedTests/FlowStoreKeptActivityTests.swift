import Fixtures
import Foundation
import TestSupport
import Testing
@testable import Shared

/// The activity counts the store keeps per second, minute and hour, against a plain count of the
/// stored packets in raw SQL — after writes, a prune, a clear and the migration of an old file.
@Suite struct FlowStoreKeptActivityTests {
    typealias F = StoreFixtures

    /// Bucket widths an axis uses (the ladder and a fallback), each tiled by a different grain.
    static let widths: [Int64] = [1, 5, 15, 60, 300, 900, 3_600, 10_800, 86_400, 172_800]

    /// 40 flows, each with packets at random sub-second instants over about three hours, written
    /// in a few batches.
    private func fill(_ store: FlowStore, seed: UInt64 = 7) async throws {
        var random = SeededRandom(seed: seed)
        for batch in 0..<4 {
            let keys = (0..<10).map { F.key(batch * 10 + $0) }
            var packets: [PacketMeta] = []
            var records: [FlowRecord] = []
            for key in keys {
                let start = Double.random(in: 0..<10_000, using: &random)
                let instants = (0..<Int.random(in: 1...60, using: &random)).map { _ in
                    start + Double.random(in: 0..<900, using: &random)
                }.sorted()
                packets += instants.map { F.packet(key, at: F.uptime($0)) }
                records.append(F.record(key, firstSeen: F.uptime(instants[0]), lastSeen: F.uptime(instants.last!),
                                        packets: UInt64(instants.count)))
            }
            try await store.write(FlowStoreBatch(flows: records, packets: packets))
        }
    }

    /// Every bucket of every width over the whole history: the kept count equals the packets whose
    /// instant is in [start, start + width), counted in raw SQL.
    private func expectCountsMatchThePackets(in directory: TemporaryDirectory, store: FlowStore) async throws {
        let check = try SQLiteConnection(path: F.databaseURL(in: directory).path, mode: .readOnly)
        defer { check.close() }
        let total = try check.integer("SELECT count(*) FROM packets") ?? 0
        let first = try check.integer("SELECT min(ts) FROM packets").map(ActivityGrain.second(ofNanoseconds:)) ?? 1_796_005_130
        let last = try check.integer("SELECT max(ts) FROM packets").map(ActivityGrain.second(ofNanoseconds:)) ?? first
        for width in Self.widths {
            let buckets = try await store.packetCounts(fromSecond: first, toSecond: last + 1, bucketSeconds: width)
            #expect(buckets.map(\.packetCount).reduce(0, +) == Int(total), "width \(width)")
            for bucket in buckets {
                let start = Int64(bucket.start.timeIntervalSince1970)
                #expect(start % width == 0, "aligned to the epoch")
                let counted = try check.withStatement("SELECT count(*) FROM packets WHERE ts >= ?1 AND ts < ?2") {
                    statement throws(SQLiteError) in
                    statement.bind(start * 1_000_000_000, at: 1)
                    statement.bind((start + width) * 1_000_000_000, at: 2)
                    _ = try statement.step()
                    return statement.int64(at: 0)
                }
                #expect(Int64(bucket.packetCount) == counted, "width \(width) at \(start)")
            }
        }
    }

    @Test("every bucket's kept count equals the stored packets in its interval, at every width")
    func countsMatchThePackets() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        try await fill(store)
        // Packets appended to a known flow count too.
        let flow = try #require(try await store.recentFlows(limit: 1).first)
        try await store.appendPackets((0..<5).map { F.packet(flow.key, at: F.uptime(20_000 + Double($0) * 0.3)) }, flowID: flow.id)
        try await expectCountsMatchThePackets(in: directory, store: store)
        await store.close()
    }

    @Test("a prune takes exactly the deleted flows' packets off the counts, emptied slots included")
    func pruneKeepsTheCountsExact() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        try await fill(store)
        for cutoff in [3_000.0, 6_000, 9_000] {
            #expect(try await store.prune(before: F.date(F.uptime(cutoff))) > 0)
            try await expectCountsMatchThePackets(in: directory, store: store)
        }
        let check = try SQLiteConnection(path: F.databaseURL(in: directory).path, mode: .readOnly)
        #expect(try check.integer("SELECT count(*) FROM activity_seconds WHERE packets <= 0") == 0)
        #expect(try check.integer("SELECT sum(packets) FROM activity_hours") == check.integer("SELECT count(*) FROM packets"))
        check.close()
        await store.close()
    }

    @Test("clearing the history empties the counts, and new packets count from zero")
    func clearAllEmptiesTheCounts() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        try await fill(store)
        try await store.clearAll()
        #expect(try await store.packetCounts(fromSecond: 0, toSecond: 4_000_000_000, bucketSeconds: 604_800).isEmpty)
        try await fill(store, seed: 9)
        try await expectCountsMatchThePackets(in: directory, store: store)
        await store.close()
    }

    @Test("an older history's counts are made from its packets when it is migrated")
    func migrationMakesTheCountsOfAnOldHistory() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        try await fill(store)
        await store.close()
        // The same file as version 5 left it: no counts, and no column of a later migration.
        let old = try SQLiteConnection(path: F.databaseURL(in: directory).path, mode: .readWriteCreate)
        try old.execute("""
            DROP TABLE activity_seconds; DROP TABLE activity_minutes; DROP TABLE activity_hours;
            \(F.droppingColumnsAdded(after: 5)) PRAGMA user_version = 5
            """)
        old.close()
        let upgraded = try F.store(in: directory)
        try await expectCountsMatchThePackets(in: directory, store: upgraded)
        await upgraded.close()
    }

    @Test("a stretch reads only its own buckets, rounded out to whole buckets")
    func aStretchReadsOnlyItsBuckets() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        let key = F.key(1)
        // The anchor's instant is 50 s past a minute: uptime(x + 10) is `x` after the next minute.
        let minuteStart: Int64 = 1_796_005_140
        let offsets = [10.0, 70, 70.5, 130]
        try await store.write(FlowStoreBatch(flows: [F.record(key, firstSeen: F.uptime(20), lastSeen: F.uptime(140))],
                                             packets: offsets.map { F.packet(key, at: F.uptime($0 + 10)) }))
        let minute = minuteStart + 60   // holds the packets at 70 and 70.5
        let counts = try await store.packetCounts(fromSecond: minute + 10, toSecond: minute + 20, bucketSeconds: 60)
        #expect(counts.map(\.packetCount) == [2])
        #expect(counts.first?.start == Date(timeIntervalSince1970: TimeInterval(minute)))
        await store.close()
    }
}

/// The reads an axis and the inspector make stay bounded however many packets the history holds:
/// SQLite's own query plan says no statement walks the packets table or its ts index whole.
@Suite struct FlowStoreBoundedReadTests {
    typealias F = StoreFixtures

    private func plan(_ sql: String, in directory: TemporaryDirectory) async throws -> [String] {
        // A history with packets, written as the tunnel writes them.
        let store = try F.store(in: directory)
        let keys = (0..<50).map { F.key($0) }
        try await store.write(FlowStoreBatch(flows: keys.map { F.record($0) },
                                             packets: keys.flatMap { key in (0..<40).map { F.packet(key, at: F.uptime(Double($0))) } }))
        await store.close()
        let connection = try SQLiteConnection(path: F.databaseURL(in: directory).path, mode: .readWriteCreate)
        defer { connection.close() }
        // No ANALYZE: the store never runs one, so the planner sees what it sees in use.
        return try connection.withStatement("EXPLAIN QUERY PLAN " + sql) { statement throws(SQLiteError) in
            var details: [String] = []
            while try statement.step() { details.append(statement.text(at: 3) ?? "") }
            return details
        }
    }

    @Test("the packet time bounds read the two ends of the ts index, not every packet")
    func boundsReadTheIndexEnds() async throws {
        let details = try await plan(FlowStore.packetTimeBoundsSQL, in: TemporaryDirectory())
        #expect(!details.contains { $0.hasPrefix("SCAN packets") }, "\(details)")
        #expect(details.filter { $0.contains("SEARCH packets USING COVERING INDEX packets_ts") }.count == 2, "\(details)")
    }

    @Test("a flow's packets are reached through its runs, never by walking the ts index")
    func packetsOfAFlowGoThroughItsRuns() async throws {
        let details = try await plan(FlowStore.packetsOfFlowSQL, in: TemporaryDirectory())
        #expect(!details.contains { $0.contains("packets_ts") || $0.hasPrefix("SCAN p") }, "\(details)")
        #expect(details.contains { $0.hasPrefix("SEARCH r") }, "\(details)")
    }

    @Test("a flow's first instant is an aggregate over its runs, never a walk of the ts index")
    func firstPacketGoesThroughItsRuns() async throws {
        let details = try await plan(FlowStore.firstPacketSQL, in: TemporaryDirectory())
        #expect(!details.contains { $0.contains("packets_ts") || $0.hasPrefix("SCAN p") }, "\(details)")
        #expect(details.contains { $0.hasPrefix("SEARCH r") }, "\(details)")
    }
}
