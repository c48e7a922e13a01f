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

    /// Reads every fact column in `FlowFactColumn` order, starting at result column `first`.
    init(reading statement: SQLiteStatement, from first: Int32) {
        for (offset, column) in FlowFactColumn.allCases.enumerated() {
            self[column] = statement.value(at: first + Int32(offset))
        }
    }

    init() {}
}
