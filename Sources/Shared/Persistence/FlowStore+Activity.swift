import Foundation

extension FlowStore {
    /// Each bound its own subquery: SQLite reads a lone min() or max() off the ends of the ts
    /// index, but `min(ts), max(ts)` in one select scans every packet.
    static let packetTimeBoundsSQL = "SELECT (SELECT min(ts) FROM packets), (SELECT max(ts) FROM packets)"

    /// The first and last packet instants stored, over every flow; nil when there are no packets
    /// (a flow alone is not activity).
    package func packetTimeBounds() throws(StoreError) -> ClosedRange<Date>? {
        let bounds = try sqlite { connection throws(SQLiteError) in
            try connection.withStatement(Self.packetTimeBoundsSQL) { statement throws(SQLiteError) in
                try statement.step() ? (statement.optionalInt64(at: 0), statement.optionalInt64(at: 1)) : (nil, nil)
            }
        }
        guard let first = bounds.0, let last = bounds.1 else { return nil }
        return EpochNanoseconds.date(first)...EpochNanoseconds.date(last)
    }

    /// Packets (not flows) per interval of `bucketDuration` seconds over `range`, both ends
    /// included. Buckets are aligned to the range's start, not to the epoch, and only non-empty
    /// ones are returned, oldest first. Every packet counts, whatever its flow's protocol or TLS
    /// status. A duration under a nanosecond counts as one. Counts every packet of the range: for
    /// an axis, `packetCounts(fromSecond:toSecond:bucketSeconds:)` reads the kept counts instead.
    package func packetCounts(in range: ClosedRange<Date>, bucketDuration: TimeInterval) throws(StoreError) -> [PacketBucket] {
        let start = EpochNanoseconds.first(notBefore: range.lowerBound)
        let end = EpochNanoseconds.last(notAfter: range.upperBound)
        guard start <= end else { return [] }
        let width = bucketDuration * 1e9 < 9.2e18 ? max(1, Int64((bucketDuration * 1e9).rounded())) : Int64.max
        // ts - start is never negative inside the range, so SQLite's integer division floors.
        let counts = try sqlite { connection throws(SQLiteError) in
            try connection.cached("""
                SELECT (ts - ?1) / ?3 AS bucket, count(*) FROM packets
                WHERE ts BETWEEN ?1 AND ?2 GROUP BY bucket ORDER BY bucket
                """) { statement throws(SQLiteError) in
                statement.bind(start, at: 1)
                statement.bind(end, at: 2)
                statement.bind(width, at: 3)
                var counts: [(bucket: Int64, count: Int64)] = []
                while try statement.step() { counts.append((statement.int64(at: 0), statement.int64(at: 1))) }
                return counts
            }
        }
        return counts.map {
            PacketBucket(start: EpochNanoseconds.date(start + $0.bucket * width), packetCount: Int($0.count))
        }
    }

    /// Packets per bucket of `bucketSeconds` whole seconds over [`startSecond`, `endSecond`)
    /// (seconds since 1970), buckets aligned to the epoch, only non-empty ones, oldest first —
    /// read from the counts kept per second, minute and hour (`ActivityGrain`), never from the
    /// packets. Each bucket's count is exactly the number of stored packets whose instant is in
    /// [start, start + bucketSeconds). The stretch is rounded out to whole buckets.
    package func packetCounts(fromSecond startSecond: Int64, toSecond endSecond: Int64,
                             bucketSeconds: Int64) throws(StoreError) -> [PacketBucket] {
        let width = max(1, bucketSeconds)
        let start = ActivityGrain.floorDivide(startSecond, width) * width
        let end = -ActivityGrain.floorDivide(-endSecond, width) * width
        guard start < end else { return [] }
        let grain = ActivityGrain.coarsest(tiling: width, from: start)
        let slotsPerBucket = width / grain.seconds
        let firstSlot = grain.slot(ofSecond: start)
        let lastSlot = grain.slot(ofSecond: end - 1)
        let counts = try sqlite { connection throws(SQLiteError) in
            try connection.cached("""
                SELECT (slot - ?1) / ?3 AS bucket, sum(packets) FROM \(grain.table)
                WHERE slot BETWEEN ?1 AND ?2 GROUP BY bucket ORDER BY bucket
                """) { statement throws(SQLiteError) in
                statement.bind(firstSlot, at: 1)
                statement.bind(lastSlot, at: 2)
                statement.bind(slotsPerBucket, at: 3)
                var counts: [(bucket: Int64, count: Int64)] = []
                while try statement.step() { counts.append((statement.int64(at: 0), statement.int64(at: 1))) }
                return counts
            }
        }
        return counts.filter { $0.count > 0 }.map {
            PacketBucket(start: Date(timeIntervalSince1970: TimeInterval(start + $0.bucket * width)),
                         packetCount: Int($0.count))
        }
    }

    /// Adds packets to the kept counts: `perSecond` is how many were written in each second since
    /// 1970. Runs inside the transaction that wrote them.
    func addActivity(_ perSecond: [Int64: Int64], on connection: SQLiteConnection) throws(SQLiteError) {
        try adjustActivity(perSecond, sign: 1, on: connection)
    }

    /// Takes the packets of the flows `prune` deletes at `limit` (ns since 1970) off the kept
    /// counts; to run inside the transaction that deletes them, before it does.
    func removeActivity(ofPrunableFlowsBefore limit: Int64, on connection: SQLiteConnection) throws(SQLiteError) {
        let perSecond = try connection.cached("""
            SELECT \(ActivityGrain.secondSQL(of: "p.ts")) AS s, count(*) FROM flows f
            JOIN packet_runs r ON r.flow_id = f.id
            JOIN packets p ON p.id BETWEEN r.first_id AND r.last_id AND p.flow_id = r.flow_id
            WHERE \(Self.prunableFlowsSQL("f.")) GROUP BY s
            """) { statement throws(SQLiteError) in
            statement.bind(limit, at: 1)
            var counts: [Int64: Int64] = [:]
            while try statement.step() { counts[statement.int64(at: 0)] = statement.int64(at: 1) }
            return counts
        }
        try adjustActivity(perSecond, sign: -1, on: connection)
    }

    /// Empties the kept counts (with every packet).
    func clearActivity(on connection: SQLiteConnection) throws(SQLiteError) {
        try connection.execute(ActivityGrain.allCases.map { "DELETE FROM \($0.table)" }.joined(separator: "; "))
    }

    private func adjustActivity(_ perSecond: [Int64: Int64], sign: Int64, on connection: SQLiteConnection) throws(SQLiteError) {
        guard !perSecond.isEmpty else { return }
        for grain in ActivityGrain.allCases {
            var perSlot: [Int64: Int64] = [:]
            for (second, count) in perSecond { perSlot[grain.slot(ofSecond: second), default: 0] += count }
            try connection.cached("""
                INSERT INTO \(grain.table) (slot, packets) VALUES (?1, ?2)
                ON CONFLICT (slot) DO UPDATE SET packets = packets + excluded.packets
                """) { upsert throws(SQLiteError) in
                for (slot, count) in perSlot {
                    upsert.bind(slot, at: 1)
                    upsert.bind(sign * count, at: 2)
                    try upsert.step()
                    upsert.reset()
                }
            }
            if sign < 0 {
                try connection.cached("DELETE FROM \(grain.table) WHERE slot = ?1 AND packets <= 0") { delete throws(SQLiteError) in
                    for slot in perSlot.keys {
                        delete.bind(slot, at: 1)
                        try delete.step()
                        delete.reset()
                    }
                }
            }
        }
    }
}
