import Foundation
import TestSupport
import Testing
@testable import Shared

/// `flows(in:…)` in every order and `flowGroups(by:…)`, against a store holding rows whose values
/// the test knows: each order's sequence is compared to the same rows sorted in Swift by the value
/// the test expects, ties by id, paged three rows at a time through the cursors.
@Suite struct FlowStoreOrderTests {
    typealias F = StoreFixtures

    /// One row: what is written and what each order should see of it.
    struct Row {
        var record: FlowRecord
        /// The server: the remote end whatever the key's canonical order.
        var server: IPAddress
        var serverPort: UInt16
    }

    static let tunnel = TunnelAddressing.ipv4Address   // 198.18.0.2

    /// 14 rows with ties on every key: names shared (one by a proxy's target), a DNS name, unnamed ones (one whose server
    /// sorts before the tunnel's address, so the remote end is A), a recorded local end,
    /// programs shared and missing, equal counters and durations.
    static func rows() -> [Row] {
        (0..<14).map { index in
            let server = index == 5 ? IPAddress(ipv4: 0xC612_0001) : IPAddress(ipv4: 0xC612_0100 | UInt32(index % 4))
            let serverPort: UInt16 = [443, 80, 8443][index % 3]
            let device = IPEndpoint(address: tunnel, port: UInt16(50_000 + index))
            var record = F.record(FlowKey(proto: index % 4 == 3 ? .udp : .tcp, source: device,
                                          destination: IPEndpoint(address: server, port: serverPort)),
                                  firstSeen: F.uptime(Double(index % 5)), lastSeen: F.uptime(Double(10 + index % 6)),
                                  bytesOut: UInt64(100 * (index % 3)), bytesIn: UInt64(1_000 * (index % 4)), packets: UInt64(index % 5),
                                  status: TLSInspectionStatus.allCases[index % TLSInspectionStatus.allCases.count])
            switch index % 7 {
            case 0, 1: record.sni = "b-\(index % 2).example"
            case 2: record.resolvedName = ResolvedFlowName(name: "a.example")
            case 3: record.sni = ""   // empty: no name
            case 4:                   // a proxy's target names it before DNS, as in `FlowName`
                record.proxyTarget = ProxyTarget(proxyProtocol: .socks5, host: "B-0.Example", port: 443)
                record.resolvedName = ResolvedFlowName(name: "z.example")
            case 5: record.proxyTarget = ProxyTarget(proxyProtocol: .httpConnect, host: "198.51.100.7", port: 443)   // names nothing
            default: break
            }
            if index == 9 { record.localEnd = device }
            if index % 3 != 2 {
                record.program = .program(ProgramFacts(pid: Int32(100 + index), command: index % 2 == 0 ? "curl" : "Firefox",
                                                       executable: nil, uid: 0, user: nil))
            } else if index == 5 {
                record.program = .socketGone
            }
            return Row(record: record, server: server, serverPort: serverPort)
        }
    }

    /// What `key` should see of `row`.
    static func expected(_ key: FlowOrder.Key, _ row: Row) -> FlowSortValue {
        let record = row.record
        let nanoseconds = { (uptime: UInt64) in F.anchor.nanosecondsSince1970(forUptime: uptime) }
        switch key {
        case .time: return .integer(nanoseconds(record.lastSeen))
        case .host: return record.name.map { .text($0.text) } ?? .blob(row.server.bytes)
        case .program:
            if case .program(let facts)? = record.program { return .text(facts.command) }
            return .blob([])
        case .port: return .integer(Int64(row.serverPort))
        case .protocol: return .integer(Int64(record.key.proto.rawValue))
        case .status: return .integer(Int64(record.tlsStatus.rawValue))
        case .received: return .integer(Int64(record.bytesIn))
        case .sent: return .integer(Int64(record.bytesOut))
        case .packets: return .integer(Int64(record.packetCount))
        case .duration: return .integer(nanoseconds(record.lastSeen) - nanoseconds(record.firstSeen))
        }
    }

    static func filled() async throws -> (TemporaryDirectory, FlowStore, [Int64: Row]) {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        let rows = rows()
        let ids = try await store.write(FlowStoreBatch(flows: rows.map(\.record))).flowIDs
        return (directory, store, Dictionary(uniqueKeysWithValues: zip(ids, rows)))
    }

    static func everyOrder() -> [FlowOrder] {
        FlowOrder.Key.allCases.flatMap { [FlowOrder($0, descending: false), FlowOrder($0, descending: true)] }
    }

    @Test("every order, both ways, pages of three through the cursors: the rows sorted by the expected value, ties by id the same way, none skipped or repeated",
          arguments: everyOrder())
    func everyOrderPagesLikeASortInSwift(order: FlowOrder) async throws {
        let (directory, store, rows) = try await Self.filled()
        _ = directory
        var listed: [ListedFlow] = []
        var cursor: FlowCursor?
        while true {
            let page = try await store.flows(in: order, limit: 3, after: cursor)
            guard let last = page.last else { break }
            listed += page
            cursor = last.cursor
        }
        let expected: [(id: Int64, value: FlowSortValue)] = rows.map { id, row in (id, Self.expected(order.key, row)) }.sorted {
            (lhs: (id: Int64, value: FlowSortValue), rhs: (id: Int64, value: FlowSortValue)) -> Bool in
            let ascending = lhs.value == rhs.value ? lhs.id < rhs.id : lhs.value < rhs.value
            return order.descending ? !ascending : ascending
        }
        #expect(listed.map { $0.flow.id } == expected.map { $0.id })
        #expect(listed.map { $0.cursor.value } == expected.map { $0.value })
        await store.close()
    }

    @Test("the host order puts every name, A to Z, before every unnamed flow's server address; the remote end is told by the recorded local end, else the tunnel's address")
    func hostOrderNamesThenAddresses() async throws {
        let (directory, store, rows) = try await Self.filled()
        _ = directory
        let listed = try await store.flows(in: FlowOrder(.host, descending: false), limit: 100)
        let values = listed.map(\.cursor.value)
        let firstAddress = try #require(values.firstIndex { if case .blob = $0 { true } else { false } })
        #expect(values[..<firstAddress].allSatisfy { if case .text = $0 { true } else { false } })
        #expect(values[firstAddress...].allSatisfy { if case .blob = $0 { true } else { false } })
        #expect(values.first == .text("a.example"))
        // Row 5's server (198.18.0.1) sorts before the tunnel's 198.18.0.2: the key's A end.
        let five = try #require(rows.first { $0.value.record.key.endpointA.address == IPAddress(ipv4: 0xC612_0001) })
        #expect(listed.first { $0.flow.id == five.key }?.cursor.value == .blob([198, 18, 0, 1]))
        await store.close()
    }

    @Test("narrowed by status and stretch in any order: only those rows, in the order")
    func narrowingAppliesInEveryOrder() async throws {
        let (directory, store, rows) = try await Self.filled()
        _ = directory
        let stretch = F.date(F.uptime(13))...F.date(F.uptime(20))
        let narrowing = FlowNarrowing(statuses: [.encrypted, .plaintext], during: stretch)
        let listed = try await store.flows(in: FlowOrder(.received, descending: true), limit: 100, narrowing: narrowing)
        let kept = rows.filter { [.encrypted, .plaintext].contains($0.value.record.tlsStatus) && $0.value.record.lastSeen >= F.uptime(13) }
        #expect(Set(listed.map(\.flow.id)) == Set(kept.keys) && !kept.isEmpty)
        #expect(zip(listed, listed.dropFirst()).allSatisfy { $0.flow.bytesIn >= $1.flow.bytesIn })
        await store.close()
    }

    @Test("group totals by host and by program equal sums made by hand, ranked by bytes, with the number of groups")
    func groupTotalsMatchHandSums() async throws {
        let (directory, store, rows) = try await Self.filled()
        _ = directory
        for key in [FlowOrder.Key.host, .program] {
            var sums: [FlowSortValue: (count: Int, bytesIn: UInt64, bytesOut: UInt64, packets: UInt64, first: UInt64, last: UInt64)] = [:]
            for row in rows.values {
                let value = Self.expected(key, row), record = row.record
                let old = sums[value] ?? (0, 0, 0, 0, .max, 0)
                sums[value] = (old.count + 1, old.bytesIn + record.bytesIn, old.bytesOut + record.bytesOut, old.packets + record.packetCount,
                               min(old.first, record.firstSeen), max(old.last, record.lastSeen))
            }
            let (groups, total) = try await store.flowGroups(by: key, limit: 100)
            #expect(total == sums.count)
            #expect(groups.count == sums.count)
            for group in groups {
                let sum = try #require(sums[group.value])
                #expect(group.connections == sum.count && group.bytesIn == sum.bytesIn && group.bytesOut == sum.bytesOut)
                #expect(group.packets == sum.packets && group.firstSeen == F.date(sum.first) && group.lastSeen == F.date(sum.last))
            }
            #expect(zip(groups, groups.dropFirst()).allSatisfy { FlowGroupTotals.ranked($0, $1) })
            let (top, all) = try await store.flowGroups(by: key, limit: 2)
            #expect(top == Array(groups.prefix(2)) && all == total)
        }
        await store.close()
    }

    @Test("a history at version 10 gains an index per sort key, and the first page of each order reads it instead of sorting")
    func versionTenGainsTheSortIndexes() async throws {
        let directory = TemporaryDirectory()
        let url = F.databaseURL(in: directory)
        let old = try FlowStore.openDatabase(at: url, upTo: 10)
        try old.execute("""
            INSERT INTO sessions (started, origin) VALUES (1, 'test');
            INSERT INTO flows (session, proto, addr_a, port_a, addr_b, port_b, first_seen, last_seen, bytes_out, bytes_in,
                               packet_count, lifetime_first_seen, tls_status, sni)
            VALUES (1, 6, X'c6120002', 40000, X'c6120109', 443, 1, 5, 10, 7000000, 3, 1, 1, 'old.example')
            """)
        old.close()
        let store = try F.store(in: directory)
        _ = try await store.write(FlowStoreBatch(flows: Self.rows().map(\.record)))
        // The row from before the migration sorts among the new ones, through the new index.
        let top = try await store.flows(in: FlowOrder(.received, descending: true), limit: 1)
        #expect(top.first?.flow.sni == "old.example" && top.first?.cursor.value == .integer(7_000_000))
        await store.close()
        let connection = try FlowStore.openDatabase(at: url, upTo: FlowStore.Schema.latestVersion)
        defer { connection.close() }
        for order in Self.everyOrder() where order.key != .time {
            var plan: [String] = []
            try connection.withStatement("EXPLAIN QUERY PLAN SELECT id FROM flows ORDER BY \(order.orderingSQL) LIMIT 3") { statement throws(SQLiteError) in
                while try statement.step() { plan.append(statement.text(at: 3) ?? "") }
            }
            #expect(plan.contains { $0.contains("flows_by_\(order.key.rawValue)") } && !plan.contains { $0.contains("TEMP B-TREE") },
                    "\(order): \(plan)")
        }
    }
}
