import Foundation

extension FlowStore {
    /// Which flows an age limit of ?1 deletes: those last seen before it that are no audit
    /// session's evidence (audit.md § Retention: exempt until their session is deleted).
    /// `table` qualifies the columns ("f." in a join).
    static func prunableFlowsSQL(_ table: String = "") -> String {
        "\(table)last_seen < ?1 AND \(table)audit_session_id IS NULL"
    }

    /// Deletes the flows last seen before `cutoff` (a real age: the instants are absolute) but
    /// those an audit session holds as evidence; their
    /// packets go with them, and so does a session that ended before `cutoff` and has no flow
    /// left, and the activity counts are kept exact. Returns how many flows were deleted. Capture files are not touched: deleting them is
    /// storage management's job.
    @discardableResult
    package func prune(before cutoff: Date) throws(StoreError) -> Int {
        let limit = EpochNanoseconds.first(notBefore: cutoff)
        return try sqlite { connection throws(SQLiteError) in
            try connection.transaction { () throws(SQLiteError) in
                try removeActivity(ofPrunableFlowsBefore: limit, on: connection)
                try connection.cached("DELETE FROM flows WHERE \(Self.prunableFlowsSQL())") { statement throws(SQLiteError) in
                    statement.bind(limit, at: 1)
                    try statement.step()
                }
                let deleted = connection.changes
                try connection.cached("""
                    DELETE FROM sessions WHERE ended < ?1
                    AND NOT EXISTS (SELECT 1 FROM flows WHERE flows.session = sessions.id)
                    """) { statement throws(SQLiteError) in
                    statement.bind(limit, at: 1)
                    try statement.step()
                }
                return deleted
            }
        }
    }

    /// Deletes every flow, packet and plaintext record, and every session but this store's own
    /// (whose origin, a command line, is history too). Ids keep counting up (AUTOINCREMENT), so
    /// a cursor or id held from before never names a new row. `keepingOpenSessions` also keeps
    /// every session not yet ended: a live tunnel's, which another process's store is writing in
    /// (`storage clear` while monitoring) and whose row its end and its summary still need.
    package func clearAll(keepingOpenSessions: Bool = false) throws(StoreError) {
        let kept = session ?? 0
        let open = keepingOpenSessions ? " AND ended IS NOT NULL" : ""
        try sqlite { connection throws(SQLiteError) in
            // Children first: a table with no trigger and no foreign key pointing at it is emptied
            // whole, not row by row; the runs' trigger then finds nothing left to delete.
            try connection.transaction { () throws(SQLiteError) in
                try connection.execute("""
                    DELETE FROM packets; DELETE FROM packet_runs; DELETE FROM plaintext; DELETE FROM http_requests; DELETE FROM flows;
                    DELETE FROM sessions WHERE id <> \(kept)\(open)
                    """)
                try clearActivity(on: connection)
            }
        }
    }

    /// Bytes of the database file and its `-wal` and `-shm` sidecars.
    package func totalBytesOnDisk() -> Int64 {
        DatabaseFile.paths(of: databaseURL.path).reduce(0) { $0 + DatabaseFile.size(of: $1) }
    }

    package func usage() throws(StoreError) -> StoreUsage {
        StoreUsage(databaseBytes: totalBytesOnDisk(), flowCount: try flowCount())
    }
}
