/// A flow's key as its five `flows` columns: `proto, addr_a, port_a, addr_b, port_b`. Addresses
/// are 4- or 16-byte blobs (the length is the family); the key is stored canonical, A < B.
struct FlowKeyColumns {
    var proto: Int64
    var addressA: [UInt8]
    var portA: Int64
    var addressB: [UInt8]
    var portB: Int64

    /// The columns in the order `init(reading:from:)` and `bind(to:from:)` use, for a `SELECT`
    /// (`prefix` names the table: "f.") or a `WHERE`.
    static func names(prefix: String = "") -> [String] {
        ["proto", "addr_a", "port_a", "addr_b", "port_b"].map { prefix + $0 }
    }

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

    init(reading statement: SQLiteStatement, from first: Int32) {
        proto = statement.int64(at: first)
        addressA = statement.blob(at: first + 1)
        portA = statement.int64(at: first + 2)
        addressB = statement.blob(at: first + 3)
        portB = statement.int64(at: first + 4)
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
