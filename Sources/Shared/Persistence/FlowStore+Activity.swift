import Foundation

extension FlowStore {
    /// The first and last packet instants stored, over every flow; nil when there are no packets
    /// (a flow alone is not activity).
    public func packetTimeBounds() throws(StoreError) -> ClosedRange<Date>? {
        let bounds = try sqlite { connection throws(SQLiteError) in
            try connection.withStatement("SELECT min(ts), max(ts) FROM packets") { statement throws(SQLiteError) in
                try statement.step() ? (statement.optionalInt64(at: 0), statement.optionalInt64(at: 1)) : (nil, nil)
            }
        }
        guard let first = bounds.0, let last = bounds.1 else { return nil }
        return EpochNanoseconds.date(first)...EpochNanoseconds.date(last)
    }

    /// Packets (not flows) per interval of `bucketDuration` seconds over `range`, both ends
    /// included. Buckets are aligned to the range's start, not to the epoch, and only non-empty
    /// ones are returned, oldest first. Every packet counts, whatever its flow's protocol or TLS
    /// status. A duration under a nanosecond counts as one.
    public func packetCounts(in range: ClosedRange<Date>, bucketDuration: TimeInterval) throws(StoreError) -> [PacketBucket] {
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
}
