import Foundation

extension FlowStore {
    /// Up to `limit` flows, most recently seen first, starting after `cursor` (from the newest when
    /// nil): `flows(in: .newestFirst, …)` without the cursors.
    package func recentFlows(limit: Int, before cursor: FlowCursor? = nil, statuses: Set<TLSInspectionStatus> = [],
                            reasons: Set<InspectionReasonKind> = [], programs: Set<String> = []) throws(StoreError) -> [StoredFlow] {
        try flows(in: .newestFirst, limit: limit, after: cursor,
                  narrowing: FlowNarrowing(statuses: statuses, reasons: reasons, programs: programs)).map(\.flow)
    }

    /// Up to `limit` flows in `order` that `narrowing` keeps, starting after `cursor` (from the
    /// first when nil), each with the cursor just past it. Ties are broken by id, so consecutive
    /// pages neither skip nor repeat. Narrowed in SQL, so a rare status or reason is found however
    /// far back it lies.
    package func flows(in order: FlowOrder, limit: Int, after cursor: FlowCursor? = nil,
                      narrowing: FlowNarrowing = .none) throws(StoreError) -> [ListedFlow] {
        // The row value compares in index order: each order's index is (expression, rowid).
        var conditions = narrowing.conditions
        if cursor != nil { conditions.insert(order.afterSQL(value: 2, id: 3), at: 0) }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let sortColumn = Int32(FlowRow.selected.columns.count)
        let rows = try sqlite { connection throws(SQLiteError) in
            try connection.cached("""
                SELECT \(FlowRow.selected.sql), \(order.expression) FROM flows \(filter) ORDER BY \(order.orderingSQL) LIMIT ?1
                """) { statement throws(SQLiteError) in
                statement.bind(Int64(clamping: max(0, limit)), at: 1)
                if let cursor {
                    statement.bind(cursor.value.sqlite, at: 2)
                    statement.bind(cursor.id, at: 3)
                }
                narrowing.bind(to: statement)
                var rows: [(FlowRow, SQLiteValue)] = []
                while try statement.step() { rows.append((FlowRow(reading: statement), statement.value(at: sortColumn))) }
                return rows
            }
        }
        return try Self.listed(rows, key: order.key)
    }

    /// `ProgramFacts.isNamed` in SQL, for the names in ?6 (a JSON array, folded): the command or the
    /// executable's file name — what follows its last "/", found as the length of the path with
    /// its trailing non-"/" characters trimmed — lowered.
    static let programNamedSQL = """
        (program_state = '\(ProgramAttributionState.program.rawValue)' AND \
        (lower(program_command) IN (SELECT value FROM json_each(?6)) OR \
        lower(substr(program_executable, length(rtrim(program_executable, replace(program_executable, '/', ''))) + 1)) \
        IN (SELECT value FROM json_each(?6))))
        """

    static func jsonArray(_ values: [String]) -> String {
        var out = JSONWriter()
        out.beginArray()
        for value in values { out.element(value) }
        out.endArray()
        return out.writer.string
    }

    /// The flow whose row id is `id`; nil when there is none (pruned, cleared, never recorded).
    package func flow(id: Int64) throws(StoreError) -> StoredFlow? {
        let rows = try sqlite { connection throws(SQLiteError) in
            try connection.cached("SELECT \(FlowRow.selected.sql) FROM flows WHERE id = ?1") { statement throws(SQLiteError) in
                statement.bind(id, at: 1)
                return try Self.rows(of: statement)
            }
        }
        return try rows.first.map { row throws(StoreError) in try StoredFlow(row: row) }
    }

    /// The flow with `key` from the most recent session that saw it.
    package func flow(matching key: FlowKey) throws(StoreError) -> StoredFlow? {
        let rows = try sqlite { connection throws(SQLiteError) in
            try connection.cached("""
                SELECT \(FlowRow.selected.sql) FROM flows WHERE \(FlowKeyColumns.matching(from: 1))
                ORDER BY session DESC, id DESC LIMIT 1
                """) { statement throws(SQLiteError) in
                FlowKeyColumns(key).bind(to: statement, from: 1)
                return try Self.rows(of: statement)
            }
        }
        return try rows.first.map { row throws(StoreError) in try StoredFlow(row: row) }
    }

    /// A flow's packets through its runs, sorted after: `+p.ts` keeps the planner from walking the
    /// whole ts index in order (to skip the sort) and testing every packet against the flow.
    static let packetsOfFlowSQL = """
        SELECT \(PacketRow.selected.sql) FROM packet_runs r
        JOIN packets p ON p.id BETWEEN r.first_id AND r.last_id AND p.flow_id = r.flow_id
        JOIN flows f ON f.id = r.flow_id
        WHERE r.flow_id = ?1 ORDER BY +p.ts, p.id LIMIT ?2 OFFSET ?3
        """

    /// Up to `limit` packets of flow `flowID`, in time order (ties by id); none for an unknown id.
    package func packets(forFlow flowID: Int64, limit: Int) throws(StoreError) -> [StoredPacket] {
        let rows = try sqlite { connection throws(SQLiteError) in
            try connection.cached(Self.packetsOfFlowSQL) { statement throws(SQLiteError) in
                statement.bind(flowID, at: 1)
                statement.bind(Int64(0), at: 3)
                statement.bind(Int64(clamping: max(0, limit)), at: 2)
                var rows: [PacketRow] = []
                while try statement.step() { rows.append(PacketRow(reading: statement)) }
                return rows
            }
        }
        return try rows.map { row throws(StoreError) in try StoredPacket(row: row) }
    }

    /// The highest capture file sequence any stored packet points into (only captured packets
    /// count), so a new capture writer never reuses a number the history still references.
    package func highestCaptureFileSequence() throws(StoreError) -> UInt32? {
        let highest = try sqlite { connection throws(SQLiteError) in
            try connection.integer("SELECT max(pcap_file) FROM packets WHERE pcap_offset <> 0")
        }
        guard let highest else { return nil }
        guard let sequence = UInt32(exactly: highest) else { throw .corruptRow("packets: pcap_file \(highest)") }
        return sequence
    }

    /// How many flow rows are stored (not how many upserts were made).
    package func flowCount() throws(StoreError) -> Int {
        try sqlite { connection throws(SQLiteError) in
            Int(try connection.integer("SELECT count(*) FROM flows") ?? 0)
        }
    }

    private static func rows(of statement: SQLiteStatement) throws(SQLiteError) -> [FlowRow] {
        var rows: [FlowRow] = []
        while try statement.step() { rows.append(FlowRow(reading: statement)) }
        return rows
    }
}
