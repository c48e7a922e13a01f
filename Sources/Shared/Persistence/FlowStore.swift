import Foundation

/// The durable history: flows and their packets in a SQLite file in the data directory, written
/// in batches by the tunnel and read by the commands, each process through its own store.
///
/// WAL mode lets one writer and readers in other processes work at once; a busy timeout covers
/// the moments they touch the same lock. Records carry monotonic stamps; the store dates them with
/// its `MonotonicAnchor` as it writes, so everything on disk is an absolute instant and everything
/// read out is a `Date`.
///
/// Each store that writes is a *session* of the history (a `sessions` row: when it opened, when
/// it ended, what started it), begun by its first write so a store that only reads leaves no
/// trace. A flow row is keyed by its 5-tuple and session, so a 5-tuple recycled by a later session
/// is a new row, and "the flows of this run" is a query (`flows(inSession:…)`), not a guess.
package actor FlowStore {
    package nonisolated let databaseURL: URL
    /// Dates the records' monotonic stamps.
    nonisolated let anchor: MonotonicAnchor
    /// This store's open instant in nanoseconds since 1970: its session's start.
    nonisolated let opened: Int64
    /// What opened it, as its session records (`HistorySession.origin`).
    package nonisolated let origin: String
    /// The wall clock a write reads (ns since 1970): whether an audit session that ended a moment
    /// ago still takes what the tunnel saw before its end (`FlowRow.auditTagSQL`). A test sets it.
    nonisolated let writerClock: @Sendable () -> Int64
    /// This store's `sessions` row; nil until its first write.
    var session: Int64?
    /// Whether `endSession()` (or `close()`) already dated the session's end.
    var sessionEnded = false
    /// nil once closed.
    var connection: SQLiteConnection?
    /// The rows this session upserted, by key: a known flow is folded in by id. Only a hint — the
    /// update checks the row is still this session's row for the key — so it needs no
    /// invalidation; emptied when it grows past `flowIDCacheLimit`, which bounds what it holds for
    /// the life of a service: 16 384 keys, about 0.7 MB (65 536 held 2.6 MB for ever after a burst).
    var sessionFlowIDs: [FlowKey: Int64] = [:]
    static let flowIDCacheLimit = 16_384

    /// Opens (creating if needed) the history at `databaseURL`; `origin` says what its session, if
    /// it writes, is for ("run curl …", "demo"). Refuses, leaving the file exactly as it was, a
    /// file that is not SQLite (`notADatabase`), another program's database (`foreignDatabase`) or
    /// a newer TunnelVision's (`newerSchema`); an older TunnelVision's is migrated.
    package init(databaseURL: URL, anchor: MonotonicAnchor = .now(), origin: String = FlowStore.unnamedOrigin,
                writerClock: @escaping @Sendable () -> Int64 = { MonotonicAnchor.now().wallClockNanosecondsSince1970 }) throws(StoreError) {
        self.databaseURL = databaseURL
        self.writerClock = writerClock
        self.anchor = anchor
        self.origin = origin
        opened = MonotonicAnchor.now().wallClockNanosecondsSince1970
        connection = try Self.openDatabase(at: databaseURL)
    }

    /// What a session records as its origin when its opener named none.
    package static let unnamedOrigin = "unnamed"

    /// Opens the history in the data directory (`DataDirectoryLayout.database(in:)`), creating the
    /// directory owner-only first.
    package init(dataDirectory: URL, anchor: MonotonicAnchor = .now(), origin: String = FlowStore.unnamedOrigin) throws(StoreError) {
        do {
            try PrivateDirectory.create(dataDirectory)
        } catch {
            throw .openFailed(path: error.path, message: error.description)
        }
        try self.init(databaseURL: DataDirectoryLayout.database(in: dataDirectory), anchor: anchor, origin: origin)
    }

    /// Dates the session's end unless that was done already (best effort: a store that cannot
    /// write any more leaves it open-ended, as a crash does), finalizes the statements and closes
    /// the file; later calls throw `closed`. The last connection to close folds the WAL back into
    /// the main file.
    package func close() {
        try? endSession()
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
