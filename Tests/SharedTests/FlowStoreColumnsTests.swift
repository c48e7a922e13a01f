import Foundation
import TestSupport
import Testing
@testable import Shared

/// Rows are read through named columns: the select list and the reader come from one list, so
/// they agree column by column, and a column the tables gain cannot shift the others' reads.
@Suite struct FlowStoreColumnsTests {
    typealias F = StoreFixtures

    private func columns(of table: String, on connection: SQLiteConnection) throws -> [String] {
        try connection.withStatement("SELECT name FROM pragma_table_info('\(table)') ORDER BY cid") { statement throws(SQLiteError) in
            var names: [String] = []
            while try statement.step() { names.append(statement.text(at: 0) ?? "") }
            return names
        }
    }

    /// Gives every column of `table`'s only row its own value (its position, plus `base`; the
    /// address blobs their own bytes), so that a read from the wrong column cannot match.
    private func fillEveryColumn(of table: String, except kept: Set<String>, base: Int64,
                                 on connection: SQLiteConnection) throws -> [String: SQLiteValue] {
        var values: [String: SQLiteValue] = [:]
        for (position, name) in try columns(of: table, on: connection).enumerated() where !kept.contains(name) {
            let value: SQLiteValue = name.hasPrefix("addr_") ? .blob([UInt8](repeating: UInt8(position), count: 4))
                                                             : .integer(base + Int64(position))
            try connection.withStatement("UPDATE \(table) SET \(name) = ?1") { update throws(SQLiteError) in
                update.bind(value, at: 1)
                try update.step()
            }
            values[name] = value
        }
        return values
    }

    /// Selects `expression` alone from the single row `from` yields.
    private func alone(_ expression: String, from: String, on connection: SQLiteConnection) throws -> SQLiteValue {
        try connection.withStatement("SELECT \(expression) FROM \(from)") { statement throws(SQLiteError) in
            guard try statement.step() else { throw SQLiteError(code: 1, message: "no row") }
            return statement.value(at: 0)
        }
    }

    /// What `FlowRow(reading:)` put in its field for `column`.
    private func field(_ column: FlowRow.Column, of row: FlowRow) -> SQLiteValue {
        switch column {
        case .id: .integer(row.id)
        case .session: .integer(row.session)
        case let .key(column): field(column, of: row.key)
        case .firstSeen: .integer(row.firstSeen)
        case .lastSeen: .integer(row.lastSeen)
        case .bytesOut: .integer(row.bytesOut)
        case .bytesIn: .integer(row.bytesIn)
        case .packetCount: .integer(row.packetCount)
        case .tlsStatus: .integer(row.tlsStatus)
        case let .fact(fact): row.facts[fact]
        case .auditSession: row.auditSession.map(SQLiteValue.integer) ?? .null
        }
    }

    private func field(_ column: PacketRow.Column, of row: PacketRow) -> SQLiteValue {
        switch column {
        case .id: .integer(row.id)
        case .timestamp: .integer(row.timestamp)
        case .direction: .integer(row.direction)
        case .length: .integer(row.length)
        case .tcpFlags: .integer(row.tcpFlags)
        case .captureFile: .integer(row.captureFile)
        case .captureOffset: .integer(row.captureOffset)
        case let .flowKey(column): field(column, of: row.key)
        }
    }

    private func field(_ column: FlowKeyColumns.Column, of key: FlowKeyColumns) -> SQLiteValue {
        switch column {
        case .proto: .integer(key.proto)
        case .addressA: .blob(key.addressA)
        case .portA: .integer(key.portA)
        case .addressB: .blob(key.addressB)
        case .portB: .integer(key.portB)
        }
    }

    @Test("every flows column a read selects lands in its own field of a fully populated row")
    func theFlowReaderAgreesWithItsSelectList() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        try await store.upsertFlow(F.record(F.key(1)))
        await store.close()
        let connection = try SQLiteConnection(path: F.databaseURL(in: directory).path, mode: .readWriteCreate)
        defer { connection.close() }
        _ = try fillEveryColumn(of: "flows", except: ["id"], base: 1_000, on: connection)
        let row = try connection.withStatement("SELECT \(FlowRow.selected.sql) FROM flows") { statement throws(SQLiteError) in
            guard try statement.step() else { throw SQLiteError(code: 1, message: "no row") }
            return FlowRow(reading: statement)
        }
        var seen: Set<SQLiteValue> = []
        for column in FlowRow.selected.columns {
            let expected = try alone(column.name, from: "flows", on: connection)
            #expect(field(column, of: row) == expected, "\(column.name)")
            // Each column its own value (TEXT columns hold theirs as text): a swap cannot match.
            #expect(expected != .null && seen.insert(expected).inserted, "\(column.name)")
        }
    }

    @Test("every packets column a read selects lands in its own field, and so does its flow's key")
    func thePacketReaderAgreesWithItsSelectList() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        let key = F.key(1)
        try await store.write(FlowStoreBatch(flows: [F.record(key)], packets: [F.packet(key, at: F.uptime(1))]))
        await store.close()
        let connection = try SQLiteConnection(path: F.databaseURL(in: directory).path, mode: .readWriteCreate)
        defer { connection.close() }
        _ = try fillEveryColumn(of: "packets", except: ["id", "flow_id"], base: 2_000, on: connection)
        _ = try fillEveryColumn(of: "flows", except: ["id"], base: 3_000, on: connection)
        let join = "packets p JOIN flows f ON f.id = p.flow_id"
        let row = try connection.withStatement("SELECT \(PacketRow.selected.sql) FROM \(join)") { statement throws(SQLiteError) in
            guard try statement.step() else { throw SQLiteError(code: 1, message: "no row") }
            return PacketRow(reading: statement)
        }
        for column in PacketRow.selected.columns {
            #expect(field(column, of: row) == (try alone(column.expression, from: join, on: connection)), "\(column.expression)")
        }
    }

    @Test("the select lists name every column of their tables but the upsert's own bookkeeping")
    func theSelectListsCoverTheTables() async throws {
        let directory = TemporaryDirectory()
        await (try F.store(in: directory)).close()
        let connection = try SQLiteConnection(path: F.databaseURL(in: directory).path, mode: .readOnly)
        defer { connection.close() }
        let flows = try columns(of: "flows", on: connection)
        let selected = FlowRow.selected.columns.map(\.name)
        #expect(Set(selected).isSubset(of: flows) && Set(selected).count == selected.count)
        #expect(Set(flows).subtracting(selected)
                == ["base_bytes_out", "base_bytes_in", "base_packet_count", "lifetime_first_seen"])
        let packets = try columns(of: "packets", on: connection)
        let selectedPackets = PacketRow.selected.columns.compactMap { column -> String? in
            if case .flowKey = column { return nil }
            return String(column.expression.dropFirst(2))
        }
        #expect(Set(packets).subtracting(selectedPackets) == ["flow_id"])
        #expect(try columns(of: "sessions", on: connection) == SessionRow.selected.columns.map(\.rawValue))
    }

    @Test("a select list's text and positions follow its one list")
    func positionsFollowTheList() {
        let columns = ResultColumns(["c", "a", "b"]) { "t.\($0)" }
        #expect(columns.sql == "t.c, t.a, t.b")
        #expect(["c", "a", "b"].map(columns.position(of:)) == [0, 1, 2])
        #expect(FlowRow.selected.sql.hasPrefix("id, session, proto, addr_a, port_a, addr_b, port_b, first_seen"))
    }
}
