import Foundation

/// What an audit session holds as evidence (audit.md § Capture files of a session, § Retention):
/// its flows, and which capture files hold their packets — derived from the packets' rows, never
/// stored beside them.
extension FlowStore {
    /// Up to `limit` flows of audit session `sessionID`, first seen first, starting after `after`
    /// (a flow of the session, from the first when nil). Ties are broken by id, so consecutive
    /// pages neither skip nor repeat.
    package func flows(inAuditSession sessionID: Int64, limit: Int, after: StoredFlow? = nil) throws(AuditStoreError) -> [StoredFlow] {
        let rows = try audit { connection throws(SQLiteError) -> Result<[FlowRow], AuditStoreError> in
            guard try sessionRow(sessionID, on: connection) != nil else { return .failure(.sessionNotFound(sessionID)) }
            return .success(try connection.cached("""
                SELECT \(FlowRow.selected.sql) FROM flows WHERE audit_session_id = ?1 AND (first_seen, id) > (?3, ?4)
                ORDER BY first_seen, id LIMIT ?2
                """) { statement throws(SQLiteError) in
                statement.bind(sessionID, at: 1)
                statement.bind(Int64(clamping: max(0, limit)), at: 2)
                statement.bind(after?.firstSeenNanoseconds ?? Int64.min, at: 3)
                statement.bind(after?.id ?? Int64.min, at: 4)
                var rows: [FlowRow] = []
                while try statement.step() { rows.append(FlowRow(reading: statement)) }
                return rows
            })
        }
        return try auditRead { () throws(StoreError) in try rows.map { row throws(StoreError) in try StoredFlow(row: row) } }
    }

    /// Every flow of audit session `sessionID`, first seen first, page after page.
    package func allFlows(inAuditSession sessionID: Int64, pageSize: Int = 1_000) throws(AuditStoreError) -> [StoredFlow] {
        precondition(pageSize > 0, "a page holds at least one flow")
        var flows: [StoredFlow] = []
        while true {
            let page = try self.flows(inAuditSession: sessionID, limit: pageSize, after: flows.last)
            flows += page
            if page.count < pageSize { return flows }
        }
    }

    package func flowCount(inAuditSession sessionID: Int64) throws(AuditStoreError) -> Int {
        try audit { connection throws(SQLiteError) -> Result<Int, AuditStoreError> in
            guard try sessionRow(sessionID, on: connection) != nil else { return .failure(.sessionNotFound(sessionID)) }
            return .success(try connection.cached("SELECT count(*) FROM flows WHERE audit_session_id = ?1") { statement throws(SQLiteError) in
                statement.bind(sessionID, at: 1)
                return try statement.step() ? Int(statement.int64(at: 0)) : 0
            })
        }
    }

    /// How many flows of the history are evidence of some audit session: what deleting everything
    /// would take from the person's audits, said before it happens.
    package func auditFlowCount() throws(StoreError) -> Int {
        try sqlite { connection throws(SQLiteError) in
            Int(try connection.integer("SELECT count(*) FROM flows WHERE audit_session_id IS NOT NULL") ?? 0)
        }
    }

    /// The capture files holding packets of audit session `sessionID`, ascending.
    package func captureFileSequences(inAuditSession sessionID: Int64) throws(AuditStoreError) -> [UInt32] {
        try audit { connection throws(SQLiteError) -> Result<[Int64], AuditStoreError> in
            guard try sessionRow(sessionID, on: connection) != nil else { return .failure(.sessionNotFound(sessionID)) }
            return .success(try Self.fileSequences(where: "f.audit_session_id = ?1", bind: sessionID, on: connection))
        }.map { sequence throws(AuditStoreError) in try auditRead { () throws(StoreError) in try Self.fileSequence(sequence) } }
    }

    /// Every capture file holding a packet of any audit session, open or ended, in one query (one
    /// instant): the files retention must keep (`RetentionPlanner`'s `evidenceSequences`).
    package func auditEvidenceFileSequences() throws(StoreError) -> Set<UInt32> {
        try Self.evidenceFileSequences(try sqlite { connection throws(SQLiteError) in try Self.evidenceRows(on: connection) })
    }

    /// The same, read synchronously through a read-only connection of its own, opened for the
    /// call and closed after it: for a caller that cannot wait on an actor (the tunnel's capture
    /// writer, making room before its next file opens). The history must exist and be at this
    /// schema (a store opened it before); anything else is the `StoreError` that says why.
    package static func auditEvidenceFileSequences(inDatabaseAt url: URL) throws(StoreError) -> Set<UInt32> {
        let rows: [Int64]
        do {
            let connection = try SQLiteConnection(path: url.path, mode: .readOnly)
            defer { connection.close() }
            try connection.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
            rows = try evidenceRows(on: connection)
        } catch {
            throw StoreError(error, path: url.path)
        }
        return try evidenceFileSequences(rows)
    }

    /// Which audit sessions, open or ended, hold evidence in each of capture files `sequences`, in
    /// one query: a file is listed when a packet of one of their flows is in it, with those
    /// sessions by id; a file holding none is not listed.
    package func auditEvidenceHolders(ofCaptureFiles sequences: Set<UInt32>) throws(StoreError) -> [UInt32: [AuditEvidenceHolder]] {
        guard !sequences.isEmpty else { return [:] }
        let ordered = sequences.sorted()
        let rows = try sqlite { connection throws(SQLiteError) in
            try connection.withStatement("""
                SELECT DISTINCT p.pcap_file, s.id, pr.name FROM flows f \(Self.flowPacketsJoin)
                JOIN audit_sessions s ON s.id = f.audit_session_id JOIN audit_projects pr ON pr.id = s.project_id
                WHERE p.pcap_offset > 0 AND p.pcap_file IN (\(ordered.indices.map { "?\($0 + 1)" }.joined(separator: ", ")))
                ORDER BY p.pcap_file, s.id
                """) { statement throws(SQLiteError) in
                for (index, sequence) in ordered.enumerated() { statement.bind(Int64(sequence), at: Int32(index + 1)) }
                var rows: [(Int64, AuditEvidenceHolder)] = []
                while try statement.step() {
                    rows.append((statement.int64(at: 0),
                                 AuditEvidenceHolder(sessionID: statement.int64(at: 1), projectName: statement.text(at: 2) ?? "")))
                }
                return rows
            }
        }
        var holders: [UInt32: [AuditEvidenceHolder]] = [:]
        for (sequence, holder) in rows { holders[try Self.fileSequence(sequence), default: []].append(holder) }
        return holders
    }

    private static func evidenceRows(on connection: SQLiteConnection) throws(SQLiteError) -> [Int64] {
        try fileSequences(where: "f.audit_session_id IS NOT NULL", bind: nil, on: connection)
    }

    private static func evidenceFileSequences(_ rows: [Int64]) throws(StoreError) -> Set<UInt32> {
        Set(try rows.map { sequence throws(StoreError) in try fileSequence(sequence) })
    }

    private static func fileSequence(_ stored: Int64) throws(StoreError) -> UInt32 {
        guard let sequence = UInt32(exactly: stored) else { throw .corruptRow("packets: pcap_file \(stored)") }
        return sequence
    }

    private static func fileSequences(where condition: String, bind value: Int64?, on connection: SQLiteConnection) throws(SQLiteError) -> [Int64] {
        // A packet never captured is stored at offset 0 of file 0: it is in no file.
        try connection.cached("""
            SELECT DISTINCT p.pcap_file FROM flows f \(flowPacketsJoin)
            WHERE \(condition) AND p.pcap_offset > 0 ORDER BY p.pcap_file
            """) { statement throws(SQLiteError) in
            if let value { statement.bind(value, at: 1) }
            var sequences: [Int64] = []
            while try statement.step() { sequences.append(statement.int64(at: 0)) }
            return sequences
        }
    }

    /// A flow's (`f`) packets (`p`), through its runs (`r`): each run is a range of ids holding
    /// only that flow's packets among others'.
    private static let flowPacketsJoin = """
        JOIN packet_runs r ON r.flow_id = f.id
        JOIN packets p ON p.id BETWEEN r.first_id AND r.last_id AND p.flow_id = r.flow_id
        """
}
