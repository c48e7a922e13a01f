#if canImport(Glibc)
import Glibc
#endif
import CSQLite
import Synchronization

/// One connection to a SQLite file: the only place the store touches the C API's lifecycle.
/// Not thread-safe by design (opened `NOMUTEX`): it belongs to one actor, which serialises use.
///
/// Statements are finalized deterministically: `withStatement` finalizes on return, the cache
/// finalizes at `close()`, and `close()` uses `sqlite3_close_v2`, so a statement still alive
/// elsewhere never leaves the file half-closed.
final class SQLiteConnection {
    enum AccessMode {
        /// Read and write; the file is created if missing.
        case readWriteCreate
        /// Read only, with locking, so a writer's WAL is seen.
        case readOnly
        /// Read only, as if nothing else could change the file (`immutable=1`): no locks, no `-shm`
        /// or `-wal` created. Only for a file with no WAL content to miss.
        case immutable
    }

    private var handle: OpaquePointer?
    private var cache: [String: SQLiteStatement] = [:]
    /// The file this connection holds locks on, counted in `filesWithLocks`; nil for `immutable`.
    private var lockedFile: FileIdentity?

    /// A file by device and inode: the identity POSIX locks belong to, whatever path named it.
    struct FileIdentity: Hashable {
        let device: UInt64
        let inode: UInt64

        init?(path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    /// The files this process holds SQLite locks on, with how many connections hold them.
    /// POSIX locks belong to the process and the inode: closing *any* descriptor of the file drops
    /// them all, so a look at such a file's bytes through open(2)/close(2) would silently unlock
    /// the connections already open on it — and another process could then checkpoint and delete
    /// the WAL under them. Whoever reads a database file directly asks here first.
    private static let filesWithLocks = Mutex<[FileIdentity: Int]>([:])

    /// Whether a connection of this process holds locks on the file at `path`.
    static func holdsLocks(onFileAt path: String) -> Bool {
        guard let identity = FileIdentity(path: path) else { return false }
        return filesWithLocks.withLock { $0[identity, default: 0] > 0 }
    }

    /// Process-wide settings that must precede SQLite's initialisation, made once before the
    /// first open.
    private static let configured: Void = { _ = ctv_sqlite_disable_memory_statistics() }()

    init(path: String, mode: AccessMode) throws(SQLiteError) {
        Self.configured
        var database: OpaquePointer?
        let name: String
        // NOFOLLOW: a symbolic link at the file is refused, never followed (DatabaseFile checks first
        // and says so; this closes the gap between its look and this open).
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        switch mode {
        case .readWriteCreate:
            name = path
            flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readOnly:
            name = path
            flags |= SQLITE_OPEN_READONLY
        case .immutable:
            name = "file:" + Self.uriEscaped(path) + "?immutable=1"
            flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
        }
        let code = sqlite3_open_v2(name, &database, flags, nil)
        guard code == SQLITE_OK, let database else {
            let error = SQLiteError(code: code, database: database)
            sqlite3_close_v2(database)
            throw error
        }
        sqlite3_extended_result_codes(database, 1)
        handle = database
        if mode != .immutable, let identity = FileIdentity(path: path) {
            lockedFile = identity
            Self.filesWithLocks.withLock { $0[identity, default: 0] += 1 }
        }
    }

    deinit { close() }

    /// Finalizes every cached statement and closes the file. Idempotent.
    func close() {
        for statement in cache.values { statement.finalize() }
        cache = [:]
        sqlite3_close_v2(handle)
        handle = nil
        if let identity = lockedFile {
            lockedFile = nil
            Self.filesWithLocks.withLock { counts in
                counts[identity, default: 1] -= 1
                if counts[identity] == 0 { counts[identity] = nil }
            }
        }
    }

    /// Runs a script of statements that return nothing the caller reads (schema, pragmas).
    func execute(_ sql: String) throws(SQLiteError) {
        let database = try liveHandle()
        let code = sqlite3_exec(database, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw SQLiteError(code: code, database: database) }
    }

    /// A statement the caller owns; finalized when it is released.
    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try SQLiteStatement(sql: sql, database: liveHandle())
    }

    /// Prepares `sql`, hands it to `body`, and finalizes it on the way out.
    func withStatement<Result>(_ sql: String,
                               _ body: (SQLiteStatement) throws(SQLiteError) -> Result) throws(SQLiteError) -> Result {
        let statement = try prepare(sql)
        defer { statement.finalize() }
        return try body(statement)
    }

    /// The statement for `sql`, prepared once and kept until `close()`; reset after `body`, so the
    /// next use starts clean whatever `body` did.
    func cached<Result>(_ sql: String,
                        _ body: (SQLiteStatement) throws(SQLiteError) -> Result) throws(SQLiteError) -> Result {
        let statement: SQLiteStatement
        if let kept = cache[sql] {
            statement = kept
        } else {
            statement = try prepare(sql)
            cache[sql] = statement
        }
        defer { statement.reset() }
        return try body(statement)
    }

    /// The first column of the first row `sql` returns (a pragma's value, a count), nil for no row
    /// or NULL.
    func integer(_ sql: String) throws(SQLiteError) -> Int64? {
        try withStatement(sql) { statement throws(SQLiteError) in
            try statement.step() ? statement.optionalInt64(at: 0) : nil
        }
    }

    /// Runs `body` in one write transaction (`BEGIN IMMEDIATE`, so the write lock is taken up
    /// front and the busy timeout applies there, not at a later upgrade). Commits when `body`
    /// returns, rolls back when it throws or the commit fails. Not reentrant.
    func transaction<Result>(_ body: () throws(SQLiteError) -> Result) throws(SQLiteError) -> Result {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // Some failures (a full disk, say) already rolled back; ROLLBACK would then fail.
            if let handle, sqlite3_get_autocommit(handle) == 0 { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
            throw error
        }
    }

    /// The rowid of the last row this connection inserted.
    var lastInsertRowID: Int64 { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 }

    /// Rows the last INSERT, UPDATE or DELETE changed directly (cascades not counted).
    var changes: Int { handle.map { Int(sqlite3_changes64($0)) } ?? 0 }

    /// How long a statement waits for another connection's lock before failing with SQLITE_BUSY.
    func setBusyTimeout(milliseconds: Int32) throws(SQLiteError) {
        let database = try liveHandle()
        let code = sqlite3_busy_timeout(database, milliseconds)
        guard code == SQLITE_OK else { throw SQLiteError(code: code, database: database) }
    }

    private func liveHandle() throws(SQLiteError) -> OpaquePointer {
        guard let handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "the connection is closed") }
        return handle
    }

    /// `path` for a `file:` URI (RFC 3986 §2): everything but unreserved characters and `/`
    /// percent-encoded, so `?`, `#` and `%` in a directory name stay part of the path.
    static func uriEscaped(_ path: String) -> String {
        var escaped = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                escaped += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return escaped
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
