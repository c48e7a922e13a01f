/// What the history occupies: for the storage screen and the retention cap.
package struct StoreUsage: Sendable, Hashable {
    /// The database file and its `-wal` and `-shm` sidecars.
    package let databaseBytes: Int64
    package let flowCount: Int

    package init(databaseBytes: Int64, flowCount: Int) {
        self.databaseBytes = databaseBytes
        self.flowCount = flowCount
    }
}
