/// A flow's key as its five `flows` columns: `proto, addr_a, port_a, addr_b, port_b`. Addresses
/// are 4- or 16-byte blobs (the length is the family); the key is stored canonical, A < B.
struct FlowKeyColumns {
    var proto: Int64
    var addressA: [UInt8]
    var portA: Int64
    var addressB: [UInt8]
    var portB: Int64

    /// The five columns, in the order `bind(to:from:)` binds them.
    enum Column: String, CaseIterable {
        case proto
        case addressA = "addr_a"
        case portA = "port_a"
        case addressB = "addr_b"
        case portB = "port_b"
    }

    /// The columns in bind order, for a `WHERE` or an `INSERT`.
    static func names() -> [String] { Column.allCases.map(\.rawValue) }

    /// `proto = ?N AND addr_a = ?N+1 …`, to bind with `bind(to:from: N)`.
    static func matching(from first: Int32) -> String {
        names().enumerated().map { "\($1) = ?\(first + Int32($0))" }.joined(separator: " AND ")
    }

    init(_ key: FlowKey) {
        proto = Int64(key.proto.rawValue)
        addressA = key.endpointA.address.bytes
        portA = Int64(key.endpointA.port)
        addressB = key.endpointB.address.bytes
        portB = Int64(key.endpointB.port)
    }

    /// Reads the key from `row`, whose select list names each key column as `column(keyColumn)`.
    init<RowColumn: Sendable>(reading row: ResultRow<RowColumn>, _ column: (Column) -> RowColumn) {
        proto = row.int64(column(.proto))
        addressA = row.blob(column(.addressA))
        portA = row.int64(column(.portA))
        addressB = row.blob(column(.addressB))
        portB = row.int64(column(.portB))
    }

    func bind(to statement: SQLiteStatement, from first: Int32) {
        statement.bind(proto, at: first)
        statement.bind(addressA, at: first + 1)
        statement.bind(portA, at: first + 2)
        statement.bind(addressB, at: first + 3)
        statement.bind(portB, at: first + 4)
    }

    /// The key these columns hold; `row` names the row in the error when they hold no key.
    func key(row: String) throws(StoreError) -> FlowKey {
        guard let proto = UInt8(exactly: proto).map(IPProtocolNumber.init(rawValue:)) else {
            throw .corruptRow("\(row): proto \(proto)")
        }
        return FlowKey(proto: proto, source: try endpoint(addressA, portA, "a", row: row),
                       destination: try endpoint(addressB, portB, "b", row: row))
    }

    private func endpoint(_ bytes: [UInt8], _ port: Int64, _ side: String, row: String) throws(StoreError) -> IPEndpoint {
        guard let address = IPAddress(bytes: bytes) else {
            throw .corruptRow("\(row): addr_\(side) has \(bytes.count) bytes")
        }
        guard let port = UInt16(exactly: port) else { throw .corruptRow("\(row): port_\(side) \(port)") }
        return IPEndpoint(address: address, port: port)
    }
}
