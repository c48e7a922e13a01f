/// The value a flow has in the order a list is sorted by (`FlowOrder`), as SQLite compares it:
/// instants, counters, ports and enums are integers, names text, addresses blobs — and SQLite
/// orders every integer before every text, and every text before every blob.
package enum FlowSortValue: Sendable, Hashable, Comparable {
    case integer(Int64)
    case text(String)
    case blob([UInt8])

    var sqlite: SQLiteValue {
        switch self {
        case .integer(let value): .integer(value)
        case .text(let value): .text(value)
        case .blob(let value): .blob(value)
        }
    }

    /// nil for a value no sort expression gives (NULL or a real).
    init?(_ value: SQLiteValue) {
        switch value {
        case .integer(let value): self = .integer(value)
        case .text(let value): self = .text(value)
        case .blob(let value): self = .blob(value)
        case .null, .real: return nil
        }
    }

    /// SQLite's order (BINARY collation): every integer, then every text by its UTF-8 bytes, then
    /// every blob by its bytes — a shorter prefix first.
    package static func < (lhs: FlowSortValue, rhs: FlowSortValue) -> Bool {
        switch (lhs, rhs) {
        case let (.integer(a), .integer(b)): a < b
        case let (.text(a), .text(b)): a.utf8.lexicographicallyPrecedes(b.utf8)
        case let (.blob(a), .blob(b)): a.lexicographicallyPrecedes(b)
        default: lhs.rank < rhs.rank
        }
    }

    private var rank: Int {
        switch self {
        case .integer: 0
        case .text: 1
        case .blob: 2
        }
    }
}
