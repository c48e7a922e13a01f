import Foundation

/// The durable history: flows and their packets in a SQLite file in the data directory, written
/// in batches by the tunnel and read by the commands, each process through its own store.
///
/// WAL mode lets one writer and readers in other processes work at once; a busy timeout covers
/// the moments they touch the same lock. Records carry monotonic stamps; the store dates them with
/// its `MonotonicAnchor` as it writes, so everything on disk is an absolute instant and everything
/// read out is a `Date`.
///
/// Each store is a *session* (its open instant): a flow row is keyed by its 5-tuple and session,
/// so a 5-tuple recycled by a later session is a new row.
public actor FlowStore {
    public nonisolated let databaseURL: URL
    /// Dates the records' monotonic stamps.
    nonisolated let anchor: MonotonicAnchor
    /// This store's open instant in nanoseconds since 1970: part of each of its flow rows' identity.
    nonisolated let session: Int64
    /// nil once closed.
    var connection: SQLiteConnection?
    /// The rows this session upserted, by key: a known flow is folded in by id. Only a hint — the
    /// update checks the row is still this session's row for the key — so it needs no
    /// invalidation; emptied when it grows past `flowIDCacheLimit`.
    var sessionFlowIDs: [FlowKey: Int64] = [:]
    static let flowIDCacheLimit = 65_536

    /// Opens (creating if needed) the history at `databaseURL`. Refuses, leaving the file exactly
    /// as it was, a file that is not SQLite (`notADatabase`), another program's database
    /// (`foreignDatabase`) or a newer TunnelVision's (`newerSchema`).
    public init(databaseURL: URL, anchor: MonotonicAnchor = .now()) throws(StoreError) {
        self.databaseURL = databaseURL
        self.anchor = anchor
        session = MonotonicAnchor.now().wallClockNanosecondsSince1970
        connection = try Self.openDatabase(at: databaseURL)
    }

    /// Opens the history in the data directory (`DataDirectoryLayout.database(in:)`), creating the
    /// directory owner-only first.
    public init(dataDirectory: URL, anchor: MonotonicAnchor = .now()) throws(StoreError) {
        do {
            try PrivateDirectory.create(dataDirectory)
        } catch {
            throw .openFailed(path: error.path, message: error.description)
        }
        try self.init(databaseURL: DataDirectoryLayout.database(in: dataDirectory), anchor: anchor)
    }

    /// Finalizes the statements and closes the file; later calls throw `closed`. The last
    /// connection to close folds the WAL back into the main file.
    public func close() {
        connection?.close()
        connection = nil
    }

    /// Runs `body` on the open connection; what SQLite reports becomes the `StoreError` its code names.
    func sqlite<Result>(_ body: (SQLiteConnection) throws(SQLiteError) -> Result) throws(StoreError) -> Result {
        guard let connection else { throw .closed }
        do {
            return try body(connection)
        } catch {
            throw StoreError(error, path: databaseURL.path)
        }
    }
}
