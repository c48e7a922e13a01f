import CSQLite

/// One prepared statement: bind, step, read columns, reset. Bind positions count from 1 and column
/// positions from 0, as in SQLite. Finalized by `finalize()` or when the last reference goes.
///
/// Binding never throws: a misuse (a position out of range) is remembered and thrown by the next
/// `step()`, so a row of binds reads as a row of binds.
final class SQLiteStatement {
    private var handle: OpaquePointer?
    private let database: OpaquePointer
    private var bindFailure: SQLiteError?

    init(sql: String, database: OpaquePointer) throws(SQLiteError) {
        self.database = database
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw SQLiteError(code: code, database: database)
        }
        handle = statement
    }

    deinit { finalize() }

    /// Releases the statement now; afterwards every step fails. Idempotent.
    func finalize() {
        sqlite3_finalize(handle)
        handle = nil
    }

    // MARK: Binding (positions from 1)

    func bind(_ value: Int64, at position: Int32) {
        check(sqlite3_bind_int64(handle, position, value))
    }

    func bind(_ value: Int64?, at position: Int32) {
        guard let value else { return bindNull(at: position) }
        bind(value, at: position)
    }

    func bind(_ value: String?, at position: Int32) {
        guard var value else { return bindNull(at: position) }
        check(value.withUTF8 { text in
            // An empty buffer has no base address, and a null pointer would bind NULL, not ''.
            guard let base = text.baseAddress else { return sqlite3_bind_text(handle, position, "", 0, Self.transient) }
            return base.withMemoryRebound(to: CChar.self, capacity: text.count) {
                sqlite3_bind_text(handle, position, $0, Int32(text.count), Self.transient)
            }
        })
    }

    func bind(_ bytes: [UInt8]?, at position: Int32) {
        guard let bytes else { return bindNull(at: position) }
        check(bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return sqlite3_bind_zeroblob(handle, position, 0) }
            return sqlite3_bind_blob(handle, position, base, Int32(buffer.count), Self.transient)
        })
    }

    func bind(_ value: SQLiteValue, at position: Int32) {
        switch value {
        case .null: bindNull(at: position)
        case let .integer(integer): bind(integer, at: position)
        case let .text(text): bind(text, at: position)
        case let .blob(bytes): bind(bytes, at: position)
        case let .real(real): check(sqlite3_bind_double(handle, position, real))
        }
    }

    func bindNull(at position: Int32) {
        check(sqlite3_bind_null(handle, position))
    }

    private func check(_ code: Int32) {
        if code != SQLITE_OK && bindFailure == nil { bindFailure = SQLiteError(code: code, database: database) }
    }

    // MARK: Stepping

    /// Runs the statement to its next row: true when a row is ready to read, false when done.
    @discardableResult
    func step() throws(SQLiteError) -> Bool {
        if let failure = bindFailure {
            bindFailure = nil
            throw failure
        }
        guard let handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "statement already finalized") }
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw SQLiteError(code: code, database: database)
        }
    }

    /// Makes the statement ready to run again, keeping its bindings (the next run rebinds what
    /// changes). Its failure, if any, was already thrown by `step()`.
    func reset() {
        sqlite3_reset(handle)
    }

    // MARK: Columns (positions from 0)

    func isNull(at column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func int64(at column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func optionalInt64(at column: Int32) -> Int64? { isNull(at: column) ? nil : int64(at: column) }

    func text(at column: Int32) -> String? {
        guard let text = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The column as SQLite stores it in this row, whatever the table declares.
    func value(at column: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: .integer(int64(at: column))
        case SQLITE_TEXT: text(at: column).map(SQLiteValue.text) ?? .null
        case SQLITE_BLOB: .blob(blob(at: column))
        case SQLITE_FLOAT: .real(sqlite3_column_double(handle, column))
        default: .null
        }
    }

    func blob(at column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// `SQLITE_TRANSIENT`: SQLite copies the bytes before the bind returns (the macro does not import).
    private static var transient: sqlite3_destructor_type {
        unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
    }
}

/// One SQLite value, for columns whose type the reader checks rather than assumes.
enum SQLiteValue: Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}
