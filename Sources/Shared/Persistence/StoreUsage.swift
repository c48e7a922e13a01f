/// What the history occupies: for the storage screen and the retention cap.
public struct StoreUsage: Sendable, Hashable {
    /// The database file and its `-wal` and `-shm` sidecars.
    public let databaseBytes: Int64
    public let flowCount: Int

    public init(databaseBytes: Int64, flowCount: Int) {
        self.databaseBytes = databaseBytes
        self.flowCount = flowCount
    }
}
