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

    /// The columns `init(reading:)` expects, from `packets p` joined with `flows f`.
    static let columns = (["p.id", "p.ts", "p.direction", "p.length", "p.tcp_flags", "p.pcap_file", "p.pcap_offset"]
                          + FlowKeyColumns.names(prefix: "f.")).joined(separator: ", ")

    init(reading statement: SQLiteStatement) {
        id = statement.int64(at: 0)
        timestamp = statement.int64(at: 1)
        direction = statement.int64(at: 2)
        length = statement.int64(at: 3)
        tcpFlags = statement.int64(at: 4)
        captureFile = statement.int64(at: 5)
        captureOffset = statement.int64(at: 6)
        key = FlowKeyColumns(reading: statement, from: 7)
    }
}
