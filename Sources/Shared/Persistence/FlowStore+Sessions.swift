import CSQLite
import Foundation

extension FlowStore {
    /// This store's session: nil until it first writes (a store that only reads records none).
    package var sessionID: Int64? { session }

    /// The session this store writes in, begun (its `sessions` row inserted, in its own
    /// transaction) by the first write. Called outside a write's transaction, so a batch that
    /// rolls back never leaves the store holding the id of a row that is not there.
    func recordingSession(on connection: SQLiteConnection) throws(SQLiteError) -> Int64 {
        if let session { return session }
        let id = try connection.withStatement("INSERT INTO sessions (started, origin) VALUES (?1, ?2) RETURNING id") {
            insert throws(SQLiteError) in
            insert.bind(opened, at: 1)
            insert.bind(origin, at: 2)
            guard try insert.step() else { throw SQLiteError(code: SQLITE_ERROR, message: "the session insert returned no id") }
            return insert.int64(at: 0)
        }
        session = id
        return id
    }

    /// Dates this store's session's end, now; nothing when it never wrote or was ended already.
    /// The tunnel ends its session when it stops, and reads its flows afterwards.
    package func endSession() throws(StoreError) {
        guard let session, !sessionEnded else { return }
        try sqlite { connection throws(SQLiteError) in
            try connection.withStatement("UPDATE sessions SET ended = ?2 WHERE id = ?1") { update throws(SQLiteError) in
                update.bind(session, at: 1)
                update.bind(MonotonicAnchor.now().wallClockNanosecondsSince1970, at: 2)
                try update.step()
            }
        }
        sessionEnded = true
    }

    /// The session with `id`; nil when there is none.
    package func session(_ id: Int64) throws(StoreError) -> HistorySession? {
        let row = try sqlite { connection throws(SQLiteError) in
            try connection.cached("SELECT \(SessionRow.selected.sql) FROM sessions WHERE id = ?1") { statement throws(SQLiteError) in
                statement.bind(id, at: 1)
                return try statement.step() ? SessionRow(reading: statement) : nil
            }
        }
        return row.map(\.session)
    }

    /// Every session, oldest first.
    package func sessions() throws(StoreError) -> [HistorySession] {
        try sqlite { connection throws(SQLiteError) in
            try connection.cached("SELECT \(SessionRow.selected.sql) FROM sessions ORDER BY id") { statement throws(SQLiteError) in
                var sessions: [HistorySession] = []
                while try statement.step() { sessions.append(SessionRow(reading: statement).session) }
                return sessions
            }
        }
    }

    /// Up to `limit` flows of session `id` in the order they were first written (by id), starting
    /// after the flow `after` (from the first when nil). Ids are unique and never reused, so
    /// consecutive pages neither skip nor repeat.
    package func flows(inSession id: Int64, limit: Int, after flowID: Int64? = nil) throws(StoreError) -> [StoredFlow] {
        let rows = try sqlite { connection throws(SQLiteError) in
            try connection.cached("""
                SELECT \(FlowRow.selected.sql) FROM flows WHERE session = ?1 AND id > ?3 ORDER BY id LIMIT ?2
                """) { statement throws(SQLiteError) in
                statement.bind(id, at: 1)
                statement.bind(Int64(clamping: max(0, limit)), at: 2)
                statement.bind(flowID ?? Int64.min, at: 3)
                var rows: [FlowRow] = []
                while try statement.step() { rows.append(FlowRow(reading: statement)) }
                return rows
            }
        }
        return try rows.map { row throws(StoreError) in try StoredFlow(row: row) }
    }

    /// Every flow of session `id`, however many, in id order: page after page of `pageSize` until
    /// a page comes back short.
    package func allFlows(inSession id: Int64, pageSize: Int = 500) throws(StoreError) -> [StoredFlow] {
        precondition(pageSize > 0, "a page holds at least one flow")
        var flows: [StoredFlow] = []
        while true {
            let page = try self.flows(inSession: id, limit: pageSize, after: flows.last?.id)
            flows += page
            if page.count < pageSize { return flows }
        }
    }
}
