/// The fact columns of one row, as values SQLite holds.
struct FlowFactValues {
    private var values: [FlowFactColumn: SQLiteValue] = [:]

    /// No fact is known.
    var isEmpty: Bool { values.isEmpty }

    subscript(column: FlowFactColumn) -> SQLiteValue {
        get { values[column] ?? .null }
        set { values[column] = newValue == .null ? nil : newValue }
    }

    /// Binds every fact column in `FlowFactColumn` order, starting at bind position `first`.
    func bind(to statement: SQLiteStatement, from first: Int32) {
        for (offset, column) in FlowFactColumn.allCases.enumerated() {
            statement.bind(self[column], at: first + Int32(offset))
        }
    }

    /// Reads every fact column from `row`, whose select list names each as `column(fact)`.
    init<RowColumn: Sendable>(reading row: ResultRow<RowColumn>, _ column: (FlowFactColumn) -> RowColumn) {
        for fact in FlowFactColumn.allCases {
            self[fact] = row.value(column(fact))
        }
    }

    init() {}
}
