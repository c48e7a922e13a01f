import CSQLite

/// A failure SQLite reported: its result code (extended codes are on) and its own words for it.
struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, say); `primaryCode` drops the detail.
    let code: Int32
    let message: String

    init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// The code and the connection's last message (`sqlite3_errmsg`), or SQLite's generic text for
    /// the code when there is no connection.
    init(code: Int32, database: OpaquePointer?) {
        let text = database.flatMap { sqlite3_errmsg($0) } ?? sqlite3_errstr(code)
        self.init(code: code, message: text.map { String(cString: $0) } ?? "unknown error")
    }

    var primaryCode: Int32 { code & 0xff }

    /// The file is not a SQLite database (or is encrypted): `SQLITE_NOTADB`.
    var isNotADatabase: Bool { primaryCode == SQLITE_NOTADB }

    var description: String { "\(message) (SQLite result code \(code))" }
}
