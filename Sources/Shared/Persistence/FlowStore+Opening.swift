import Foundation

extension FlowStore {
    /// How long a statement waits for another process's lock (the reader's, the writer's).
    static let busyTimeoutMilliseconds: Int32 = 5_000
    /// WAL pages a commit may leave before it folds them into the main file (SQLite's default is
    /// 1 000). Each fold syncs twice, and at the pipeline's rate a 1 000-page WAL folds every
    /// dozen thousand packets: those syncs were a fifth of the write time. A larger WAL (up to
    /// ~40 MiB) folds a tenth as often and copies a page rewritten meanwhile once. The price: a
    /// power cut (not a crash) can lose the commits since the last fold.
    static let walCheckpointPages = 10_000

    /// Opens `url` for the store: refuses, untouched, a file that is not ours, is too new or is
    /// damaged; then turns on WAL and migrates up to `target` (tests stop earlier to build old files).
    static func openDatabase(at url: URL, upTo target: Int = Schema.latestVersion) throws(StoreError) -> SQLiteConnection {
        let path = url.path
        // A file this process already has open was checked by its first opener; looking at its
        // bytes again through a descriptor of our own would drop that opener's locks on close.
        if !SQLiteConnection.holdsLocks(onFileAt: path) {
            switch try DatabaseFile.prepare(path) {
            case .notSQLite: throw .notADatabase(path: path)
            case .sqlite: try checkOwnership(path)
            case .empty: break
            }
        }
        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection(path: path, mode: .readWriteCreate)
            try connection.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
            // The first writes to the file: only after it is known to be ours.
            try connection.execute("""
                PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;
                PRAGMA wal_autocheckpoint = \(walCheckpointPages)
                """)
        } catch {
            if error.isDamage { throw damaged(path, reason: error.message) }
            throw StoreError(error, path: path)
        }
        try Schema.migrate(connection, upTo: target, path: path)
        return connection
    }

    /// Reads whose the file is, and whether it is whole, without writing to it: immutable (no
    /// locks, no sidecars created) unless the WAL holds content the main file does not show yet.
    ///
    /// Whole means the header's size agrees with the file's, the schema reads, and so does each
    /// table's first and last rows — the path every append takes. Not `PRAGMA quick_check`, which
    /// reads every page: 8 s on a 100 MB history on this machine kind, at every start. A page
    /// damaged deeper in is found when it is read, and reported then (`StoreError.corrupt`).
    private static func checkOwnership(_ path: String) throws(StoreError) {
        if let damage = try DatabaseFile.damage(path) { throw damaged(path, reason: damage) }
        let applicationID: Int64, userVersion: Int64, schemaObjects: Int64
        do {
            let connection = try SQLiteConnection(path: path, mode: DatabaseFile.hasWALContent(path) ? .readOnly : .immutable)
            defer { connection.close() }
            // A read of a WAL file can meet a writer's brief lock on its index: wait, as the store does.
            try connection.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
            applicationID = try connection.integer("PRAGMA application_id") ?? 0
            userVersion = try connection.integer("PRAGMA user_version") ?? 0
            schemaObjects = try connection.integer("SELECT count(*) FROM sqlite_master") ?? 0
            if applicationID == Int64(Schema.applicationID) { try readTableEdges(connection) }
        } catch {
            if error.isDamage { throw damaged(path, reason: error.message) }
            throw StoreError(error, path: path)
        }
        if let refusal = refusal(path: path, applicationID: applicationID, userVersion: userVersion,
                                 schemaObjects: schemaObjects) {
            throw refusal
        }
    }

    /// Descends to each table's first row, and a rowid table's last: a few pages each, however
    /// large the history. (A WITHOUT ROWID table has no rowid to take the maximum of.)
    private static func readTableEdges(_ connection: SQLiteConnection) throws(SQLiteError) {
        let tables = try connection.withStatement("""
            SELECT name, sql LIKE '%WITHOUT ROWID%' FROM sqlite_master WHERE type = 'table' ORDER BY name
            """) { statement throws(SQLiteError) in
            var tables: [(name: String, withoutRowID: Bool)] = []
            while try statement.step() { tables.append((statement.text(at: 0) ?? "", statement.int64(at: 1) != 0)) }
            return tables
        }
        for table in tables {
            let quoted = "\"" + table.name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            _ = try connection.integer("SELECT count(*) FROM (SELECT 1 FROM \(quoted) LIMIT 1)")
            if !table.withoutRowID { _ = try connection.integer("SELECT max(rowid) FROM \(quoted)") }
        }
    }

    /// The refusal of a damaged file, with where to move it.
    static func damaged(_ path: String, reason: String, now: Date = Date()) -> StoreError {
        .damaged(path: path, reason: reason, setAside: SetAsideName.path(for: path, why: "damaged", at: now))
    }

    /// Ours at a known version, or blank (no id, no version, no tables) and so ours to initialise;
    /// anything else is refused.
    static func refusal(path: String, applicationID: Int64, userVersion: Int64, schemaObjects: Int64) -> StoreError? {
        if applicationID == Int64(Schema.applicationID) {
            return userVersion > Schema.latestVersion
                ? .newerSchema(found: Int(clamping: userVersion), supported: Schema.latestVersion) : nil
        }
        return applicationID == 0 && userVersion == 0 && schemaObjects == 0 ? nil : .foreignDatabase(path: path)
    }
}
