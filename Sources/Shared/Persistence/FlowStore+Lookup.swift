import Foundation

extension FlowStore {
    /// How many packets of flow `flowID` the history holds (0 for an unknown id), or only those
    /// with a capture location: counted through its runs, so it reads only that flow's rows.
    package func packetCount(forFlow flowID: Int64, capturedOnly: Bool = false) throws(StoreError) -> Int {
        try sqlite { connection throws(SQLiteError) in
            try connection.cached("""
                SELECT count(*) FROM packet_runs r
                JOIN packets p ON p.id BETWEEN r.first_id AND r.last_id AND p.flow_id = r.flow_id
                WHERE r.flow_id = ?1\(capturedOnly ? " AND p.pcap_offset <> 0" : "")
                """) { statement throws(SQLiteError) in
                statement.bind(flowID, at: 1)
                return try statement.step() ? Int(statement.int64(at: 0)) : 0
            }
        }
    }

    /// The packet at `index` (from 0) of flow `flowID` in time order (ties by id), as
    /// `packets(forFlow:limit:)` orders them; nil past the last one.
    package func packet(forFlow flowID: Int64, at index: Int) throws(StoreError) -> StoredPacket? {
        guard index >= 0 else { return nil }
        let rows = try sqlite { connection throws(SQLiteError) in
            // The flow's own rows, as `packets(forFlow:limit:)` reads them: never the ts index.
            try connection.cached(Self.packetsOfFlowSQL) { statement throws(SQLiteError) in
                statement.bind(flowID, at: 1)
                statement.bind(Int64(1), at: 2)
                statement.bind(Int64(index), at: 3)
                var rows: [PacketRow] = []
                while try statement.step() { rows.append(PacketRow(reading: statement)) }
                return rows
            }
        }
        return try rows.first.map { row throws(StoreError) in try StoredPacket(row: row) }
    }

    /// `+p.ts`: without it SQLite takes min() from the ts index's first entries, testing each
    /// against the flow — every packet of the history before the flow's first (seconds, measured).
    static let firstPacketSQL = """
        SELECT min(+p.ts) FROM packet_runs r
        JOIN packets p ON p.id BETWEEN r.first_id AND r.last_id AND p.flow_id = r.flow_id
        WHERE r.flow_id = ?1
        """

    /// The instant of flow `flowID`'s first stored packet (what the inspector's times count from);
    /// nil for a flow without packets. An aggregate over the flow's own rows: no sort.
    package func firstPacketDate(forFlow flowID: Int64) throws(StoreError) -> Date? {
        let first = try sqlite { connection throws(SQLiteError) in
            try connection.cached(Self.firstPacketSQL) { statement throws(SQLiteError) in
                statement.bind(flowID, at: 1)
                return try statement.step() ? statement.optionalInt64(at: 0) : nil
            }
        }
        return first.map(EpochNanoseconds.date)
    }
}
