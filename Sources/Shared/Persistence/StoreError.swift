import CSQLite

/// Why the history could not do what it was asked. Each case's comment says what the caller
/// should do. Refusals (`notADatabase`, `foreignDatabase`, `newerSchema`) leave the file exactly
/// as it was. What SQLite reports is told apart by its result code — a full disk, a lock, a
/// damaged file, a permission, the disk itself — and keeps the code (`SQLiteError`, primary and
/// extended), because each asks the person for something different.
package enum StoreError: Error, Sendable, Hashable {
    /// The file at `path` is not a SQLite database. Nothing was changed: tell the person, and
    /// point the store at another path; never delete or overwrite the file on their behalf.
    case notADatabase(path: String)
    /// The file at `path` is a SQLite database made by another program (its tables are not ours).
    /// Nothing was changed: tell the person and use another path.
    case foreignDatabase(path: String)
    /// The database was written by a newer TunnelVision (`found` > `supported`). Nothing was
    /// changed: run the newer build, or move the file aside to start a new history.
    case newerSchema(found: Int, supported: Int)
    /// The data directory or the file could not be made ready, for a reason of the file system
    /// rather than SQLite's (a missing parent, a directory in the file's place). Report `message`;
    /// retrying after fixing the cause is safe.
    case openFailed(path: String, message: String)
    /// Migrating to schema `version` failed and was rolled back; the file is at the version before
    /// it. Report `message`; do not write to this file with this build.
    case migrationFailed(version: Int, message: String)
    /// The disk holding the history is full (`SQLITE_FULL`). The write that failed was rolled
    /// back whole: free space on that disk (or shorten the retention), then retrying the same
    /// batch is safe. Nothing is wrong with the file.
    case diskFull(path: String, SQLiteError)
    /// Another connection held the file's lock past the busy timeout (`SQLITE_BUSY`), or a table
    /// was locked (`SQLITE_LOCKED`). Nothing was written: retry; if it lasts, another process
    /// (a second tunnel, a `sqlite3` shell left in a transaction) holds the history — stop it.
    case locked(path: String, SQLiteError)
    /// The file is damaged (`SQLITE_CORRUPT`) or no longer reads as a database (`SQLITE_NOTADB`:
    /// overwritten while open). Stop writing to it: move it aside, keep it for recovery
    /// (`sqlite3 FILE .recover`), and start a new history.
    case corrupt(path: String, SQLiteError)
    /// Found damaged when opened — cut short (`DatabaseHeader`), or SQLite reports it malformed
    /// where the opening reads (`SQLITE_CORRUPT`, `SQLITE_NOTADB`) — and refused before anything
    /// was written. Nothing was changed: tell the person to move it (and its -wal and -shm files)
    /// aside, to `setAside`, and run again to start a new history; never recreate it for them.
    case damaged(path: String, reason: String, setAside: String)
    /// The file or its directory may not be written or opened (`SQLITE_READONLY`,
    /// `SQLITE_CANTOPEN`, `SQLITE_PERM`): a read-only mount, another user's file, a missing
    /// directory. Fix the permissions (or run as the directory's owner), or point `--data-dir`
    /// elsewhere; retrying after that is safe.
    case notWritable(path: String, SQLiteError)
    /// The operating system failed a read, write, sync or lock on the file (`SQLITE_IOERR`; the
    /// extended code says which). The disk or file system is failing or went away: check the
    /// system log for the device; the failed write was rolled back, so a retry once it is
    /// healthy is safe.
    case ioFailed(path: String, SQLiteError)
    /// SQLite refused a statement for another reason (a constraint, a misuse): a fault in this
    /// build, not in the machine. Report it with its code; the write was rolled back whole.
    case queryFailed(SQLiteError)
    /// A stored row cannot be read back as a valid value (the text says which and why). Report it;
    /// other rows are unaffected, and pruning or clearing the history removes it.
    case corruptRow(String)
    /// The store was closed. Open a new one.
    case closed
}

extension StoreError {
    /// What SQLite reported about the file at `path`, as the case the person must act on.
    init(_ error: SQLiteError, path: String) {
        if error.isLock { self = .locked(path: path, error); return }
        switch error.primaryCode {
        case SQLITE_FULL: self = .diskFull(path: path, error)
        case SQLITE_CORRUPT, SQLITE_NOTADB: self = .corrupt(path: path, error)
        case SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM: self = .notWritable(path: path, error)
        case SQLITE_IOERR: self = .ioFailed(path: path, error)
        default: self = .queryFailed(error)
        }
    }
}

extension StoreError: CustomStringConvertible {
    package var description: String {
        switch self {
        case let .notADatabase(path): "\(path) is not a SQLite database; it was left untouched"
        case let .foreignDatabase(path): "\(path) is another program's database; it was left untouched"
        case let .newerSchema(found, supported):
            "the history was written by a newer TunnelVision (schema \(found); this build knows up to \(supported)); it was left untouched"
        case let .openFailed(path, message): "cannot open the history at \(path): \(message)"
        case let .migrationFailed(version, message): "cannot update the history to schema \(version): \(message)"
        case let .diskFull(path, error):
            "the disk holding the history \(path) is full; free space on it, then the next write retries (\(error))"
        case let .locked(path, error):
            "another process holds the history \(path) locked; stop it (another tunnel, a sqlite3 shell) or retry (\(error))"
        case let .corrupt(path, error):
            "the history \(path) is damaged; move it aside (sqlite3 .recover can read it) and start a new one (\(error))"
        case let .damaged(path, reason, setAside):
            "the history \(path) is damaged (\(reason)): move it aside (mv \(path) \(setAside), and its -wal and -shm "
                + "files likewise if present) and run again to start a new one; nothing was changed "
                + "(sqlite3 \(setAside) .recover may read what it holds)"
        case let .notWritable(path, error):
            "the history \(path) cannot be opened or written; check its and its directory's owner, mode and mount (\(error))"
        case let .ioFailed(path, error):
            "the disk failed reading or writing the history \(path); check the system log for the device (\(error))"
        case let .queryFailed(error): "the history refused a statement, a fault in this build: \(error)"
        case let .corruptRow(detail): "a stored row is damaged: \(detail)"
        case .closed: "the history is closed"
        }
    }
}
