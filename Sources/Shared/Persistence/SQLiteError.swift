import CSQLite

/// A failure SQLite reported: its result code (extended codes are on) and its own words for it.
/// `StoreError` carries it whole, so the person's diagnosis can quote both codes.
package struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, `SQLITE_IOERR_FSYNC`, say);
    /// `primaryCode` drops the detail.
    package let code: Int32
    package let message: String

    init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// The code and the connection's last message (`sqlite3_errmsg`), or SQLite's generic text for
    /// the code when there is no connection. The connection's extended code replaces a primary
    /// one of the same kind: an open fails before extended codes can be turned on.
    init(code: Int32, database: OpaquePointer?) {
        let extended = database.map { sqlite3_extended_errcode($0) } ?? code
        let text = database.flatMap { sqlite3_errmsg($0) } ?? sqlite3_errstr(code)
        self.init(code: extended & 0xff == code & 0xff ? extended : code,
                  message: text.map { String(cString: $0) } ?? "unknown error")
    }

    /// The primary result code (`SQLITE_IOERR` for `SQLITE_IOERR_FSYNC`).
    package var primaryCode: Int32 { code & 0xff }

    /// The file is not a SQLite database (or is encrypted): `SQLITE_NOTADB`.
    var isNotADatabase: Bool { primaryCode == SQLITE_NOTADB }

    /// SQLite found the file malformed (`SQLITE_CORRUPT`) or, past its magic, not a database
    /// (`SQLITE_NOTADB`): a damaged history, to be refused at open.
    var isDamage: Bool { primaryCode == SQLITE_CORRUPT || isNotADatabase }

    /// Another connection held a lock past the busy timeout (`SQLITE_BUSY`), or a table was
    /// locked (`SQLITE_LOCKED`): nothing was written, and a retry may succeed.
    var isLock: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    package var description: String {
        code == primaryCode ? "\(message) (SQLite result code \(code))"
            : "\(message) (SQLite result code \(primaryCode), extended \(code))"
    }
}
