/// A `packets` row joined with its flow's key, as SQLite holds it. `StoredPacket(row:)` is the
/// checked value made from it.
struct PacketRow {
    var id: Int64
    /// Nanoseconds since 1970.
    var timestamp: Int64
    var direction: Int64
    var length: Int64
    var tcpFlags: Int64
    var captureFile: Int64
    /// 0 when the packet was not captured.
    var captureOffset: Int64
    var key: FlowKeyColumns

    /// The columns a read selects, from `packets p` joined with `flows f`.
    enum Column: Hashable {
        case id, timestamp, direction, length, tcpFlags, captureFile, captureOffset
        case flowKey(FlowKeyColumns.Column)

        var expression: String {
            switch self {
            case .id: "p.id"
            case .timestamp: "p.ts"
            case .direction: "p.direction"
            case .length: "p.length"
            case .tcpFlags: "p.tcp_flags"
            case .captureFile: "p.pcap_file"
            case .captureOffset: "p.pcap_offset"
            case let .flowKey(column): "f." + column.rawValue
            }
        }
    }

    /// What `init(reading:)` reads.
    static let selected = ResultColumns<Column>(
        [.id, .timestamp, .direction, .length, .tcpFlags, .captureFile, .captureOffset]
            + FlowKeyColumns.Column.allCases.map(Column.flowKey),
        expression: \.expression)

    init(reading statement: SQLiteStatement) {
        let row = ResultRow(statement: statement, columns: Self.selected)
        id = row.int64(.id)
        timestamp = row.int64(.timestamp)
        direction = row.int64(.direction)
        length = row.int64(.length)
        tcpFlags = row.int64(.tcpFlags)
        captureFile = row.int64(.captureFile)
        captureOffset = row.int64(.captureOffset)
        key = FlowKeyColumns(reading: row, Column.flowKey)
    }
}
