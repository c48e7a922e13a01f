import Foundation

extension FlowStore {
    /// The flows `narrowing` keeps, grouped by `key`'s value (`FlowOrder.expression`: `.host` or `.program`), with each
    /// group's totals over the whole history — not a page. The `limit` groups with the most bytes
    /// (both ways) first, ties by value; and how many groups there are in all.
    package func flowGroups(by key: FlowOrder.Key, limit: Int,
                           narrowing: FlowNarrowing = .none) throws(StoreError) -> (groups: [FlowGroupTotals], total: Int) {
        let conditions = narrowing.conditions
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        // The window counts the groups before LIMIT cuts them: one pass, not a second query.
        let sql = """
            SELECT g, n, bytes_in, bytes_out, packets, first_seen, last_seen, count(*) OVER () FROM (
                SELECT \(FlowOrder.expression(key)) AS g, count(*) AS n, sum(bytes_in) AS bytes_in, sum(bytes_out) AS bytes_out,
                sum(packet_count) AS packets, min(first_seen) AS first_seen, max(last_seen) AS last_seen
                FROM flows \(filter) GROUP BY g)
            ORDER BY bytes_in + bytes_out DESC, g LIMIT ?1
            """
        let rows = try sqlite { connection throws(SQLiteError) in
            try connection.cached(sql) { statement throws(SQLiteError) in
                statement.bind(Int64(clamping: max(0, limit)), at: 1)
                narrowing.bind(to: statement)
                var rows: [(SQLiteValue, [Int64])] = []
                while try statement.step() { rows.append((statement.value(at: 0), (1...7).map { statement.int64(at: $0) })) }
                return rows
            }
        }
        var groups: [FlowGroupTotals] = []
        for (value, numbers) in rows {
            guard let value = FlowSortValue(value), numbers[0...3].allSatisfy({ $0 >= 0 }) else {
                throw .corruptRow("flows: a \(key) group with no value or negative totals")
            }
            groups.append(FlowGroupTotals(value: value, connections: Int(numbers[0]), bytesIn: UInt64(numbers[1]),
                                          bytesOut: UInt64(numbers[2]), packets: UInt64(numbers[3]),
                                          firstSeen: EpochNanoseconds.date(numbers[4]), lastSeen: EpochNanoseconds.date(numbers[5])))
        }
        return (groups, Int(rows.first?.1[6] ?? 0))
    }

    /// Up to `limit` flows `narrowing` keeps with an id above `afterID`, in id order (the table's
    /// own, so no sort), each with its `key` value as its cursor's value: the rows a grouping reads
    /// one by one when it must match each (a search the store cannot narrow by).
    package func groupMembers(by key: FlowOrder.Key, afterID: Int64, limit: Int,
                             narrowing: FlowNarrowing = .none) throws(StoreError) -> [ListedFlow] {
        let conditions = ["id > ?2"] + narrowing.conditions
        let valueColumn = Int32(FlowRow.selected.columns.count)
        let rows = try sqlite { connection throws(SQLiteError) in
            try connection.cached("""
                SELECT \(FlowRow.selected.sql), \(FlowOrder.expression(key)) FROM flows
                WHERE \(conditions.joined(separator: " AND ")) ORDER BY id LIMIT ?1
                """) { statement throws(SQLiteError) in
                statement.bind(Int64(clamping: max(0, limit)), at: 1)
                statement.bind(afterID, at: 2)
                narrowing.bind(to: statement)
                var rows: [(FlowRow, SQLiteValue)] = []
                while try statement.step() { rows.append((FlowRow(reading: statement), statement.value(at: valueColumn))) }
                return rows
            }
        }
        return try Self.listed(rows, key: key)
    }

    /// Rows read with a key's value after their columns, as checked flows with their cursors.
    static func listed(_ rows: [(FlowRow, SQLiteValue)], key: FlowOrder.Key) throws(StoreError) -> [ListedFlow] {
        try rows.map { row, value throws(StoreError) in
            let flow = try StoredFlow(row: row)
            guard let sortValue = FlowSortValue(value) else { throw .corruptRow("flows \(row.id): no \(key) value") }
            return ListedFlow(flow: flow, cursor: FlowCursor(value: sortValue, id: flow.id))
        }
    }
}
