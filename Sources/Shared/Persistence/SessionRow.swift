/// A `sessions` row as SQLite holds it.
struct SessionRow {
    enum Column: String, Hashable {
        case id, started, ended, origin
    }

    static let selected = ResultColumns<Column>([.id, .started, .ended, .origin], expression: \.rawValue)

    var id: Int64
    var started: Int64
    var ended: Int64?
    var origin: String

    init(reading statement: SQLiteStatement) {
        let row = ResultRow(statement: statement, columns: Self.selected)
        id = row.int64(.id)
        started = row.int64(.started)
        ended = row.optionalInt64(.ended)
        origin = row.text(.origin) ?? ""
    }

    var session: HistorySession {
        HistorySession(id: id, started: EpochNanoseconds.date(started), ended: ended.map(EpochNanoseconds.date),
                       origin: origin)
    }
}
