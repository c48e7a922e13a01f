/// The result columns of one `SELECT`, by name: the select list's text and the position each
/// column is read from are made from one list, so adding, removing or reordering a column cannot
/// shift the reads of the others.
struct ResultColumns<Column: Hashable & Sendable>: Sendable {
    /// In select-list order.
    let columns: [Column]
    /// The select list: `id, proto, …`.
    let sql: String
    private let positions: [Column: Int32]

    /// `expression` is what the select list says for a column (`id`, `f.proto`).
    init(_ columns: [Column], expression: (Column) -> String) {
        var positions: [Column: Int32] = [:]
        for (position, column) in columns.enumerated() {
            precondition(positions.updateValue(Int32(position), forKey: column) == nil, "\(column) is selected twice")
        }
        self.columns = columns
        self.positions = positions
        sql = columns.map(expression).joined(separator: ", ")
    }

    /// Where `column` sits in a result row. A column the list does not select is a programming
    /// error, caught by the store's column tests.
    func position(of column: Column) -> Int32 {
        guard let position = positions[column] else { preconditionFailure("\(column) is not in the select list") }
        return position
    }
}

/// The current row of a stepped statement whose select list is `columns`, read by column name.
struct ResultRow<Column: Hashable & Sendable> {
    let statement: SQLiteStatement
    let columns: ResultColumns<Column>

    func int64(_ column: Column) -> Int64 { statement.int64(at: columns.position(of: column)) }
    func blob(_ column: Column) -> [UInt8] { statement.blob(at: columns.position(of: column)) }
    func text(_ column: Column) -> String? { statement.text(at: columns.position(of: column)) }
    func optionalInt64(_ column: Column) -> Int64? { statement.optionalInt64(at: columns.position(of: column)) }
    /// The column as SQLite stores it in this row.
    func value(_ column: Column) -> SQLiteValue { statement.value(at: columns.position(of: column)) }
}
