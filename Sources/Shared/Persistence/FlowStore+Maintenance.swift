import Foundation

extension FlowStore {
    /// Deletes the flows last seen before `cutoff` (a real age: the instants are absolute); their
    /// packets go with them. Returns how many flows were deleted. Capture files are not touched:
    /// deleting them is storage management's job.
    @discardableResult
    public func prune(before cutoff: Date) throws(StoreError) -> Int {
        let limit = EpochNanoseconds.first(notBefore: cutoff)
        return try sqlite { connection throws(SQLiteError) in
            try connection.transaction { () throws(SQLiteError) in
                try connection.cached("DELETE FROM flows WHERE last_seen < ?1") { statement throws(SQLiteError) in
                    statement.bind(limit, at: 1)
                    try statement.step()
                }
                return connection.changes
            }
        }
    }

    /// Deletes every flow, packet and plaintext record. Ids keep counting up (AUTOINCREMENT), so a
    /// cursor or id held from before never names a new row.
    public func clearAll() throws(StoreError) {
        try sqlite { connection throws(SQLiteError) in
            // Children first: a table with no trigger and no foreign key pointing at it is emptied
            // whole, not row by row; the runs' trigger then finds nothing left to delete.
            try connection.transaction { () throws(SQLiteError) in
                try connection.execute("DELETE FROM packets; DELETE FROM packet_runs; DELETE FROM plaintext; DELETE FROM flows")
            }
        }
    }

    /// Bytes of the database file and its `-wal` and `-shm` sidecars.
    public func totalBytesOnDisk() -> Int64 {
        DatabaseFile.paths(of: databaseURL.path).reduce(0) { $0 + DatabaseFile.size(of: $1) }
    }

    public func usage() throws(StoreError) -> StoreUsage {
        StoreUsage(databaseBytes: totalBytesOnDisk(), flowCount: try flowCount())
    }
}
