import Foundation
import Shared
import TestSupport
import App

/// Flows written into a real `FlowStore` over a temporary directory and read back as the export
/// sees them: the only way to have `HistoryFlow` values, and the point — they are the store's.
struct ExportHistoryFixture {
    let directory: TemporaryDirectory
    let store: FlowStore

    static let server = IPAddress(parsing: "198.19.0.2")!

    init() throws {
        directory = TemporaryDirectory("export")
        store = try FlowStore(dataDirectory: directory.url.appendingPathComponent("data"))
    }

    /// A TCP flow from the tunnel's address to the lab's server on port 443, seen at `lastSeen` ns.
    static func record(port: UInt16, lastSeen: UInt64, proto: IPProtocolNumber = .tcp,
                       device: IPAddress = TunnelAddressing.ipv4Address, server: IPAddress = ExportHistoryFixture.server,
                       sni: String? = nil, resolved: ResolvedFlowName? = nil, status: TLSInspectionStatus = .encrypted,
                       bytesOut: UInt64 = 500, bytesIn: UInt64 = 4_000, packets: UInt64 = 9) -> FlowRecord {
        var record = FlowRecord(key: FlowKey(proto: proto, source: IPEndpoint(address: device, port: port),
                                             destination: IPEndpoint(address: server, port: 443)),
                                firstSeen: 1_000_000, tlsStatus: status)
        record.lastSeen = lastSeen
        record.sni = sni
        record.resolvedName = resolved
        record.bytesOut = bytesOut
        record.bytesIn = bytesIn
        record.packetCount = packets
        return record
    }

    /// Writes `records` and returns the history newest first, as the export reads it.
    func write(_ records: [FlowRecord]) async throws -> [HistoryFlow] {
        for record in records { _ = try await store.upsertFlow(record) }
        return try await store.recentFlows(limit: records.count + 10).map { HistoryFlow($0) }
    }

    /// `count` plain flows, each on its own port, the later ones more recent.
    func write(count: Int) async throws -> [HistoryFlow] {
        try await write((0..<count).map { Self.record(port: UInt16(40_000 + $0), lastSeen: 2_000_000 + UInt64($0) * 1_000) })
    }

    func close() async { await store.close() }
}

/// A history served page by page from a list, as the store would: after a cursor, newest first.
/// It records what it was asked, and can be told to fail at a given call.
actor ScriptedHistory {
    let flows: [HistoryFlow]
    let failingCall: Int?
    private(set) var asked: [Int] = []

    init(_ flows: [HistoryFlow], failingAtCall failingCall: Int? = nil) {
        self.flows = flows
        self.failingCall = failingCall
    }

    func page(_ limit: Int, _ cursor: FlowCursor?) throws -> [HistoryFlow] {
        asked.append(limit)
        if asked.count == failingCall { throw HistoryError.unreadable("disk I/O error") }
        let start = cursor.map { cursor in (flows.firstIndex { $0.id == cursor.id } ?? flows.count) + 1 } ?? 0
        return Array(flows[min(start, flows.count)...].prefix(limit))
    }

    nonisolated var provider: FlowExporter.PageProvider {
        { limit, cursor in try await self.page(limit, cursor) }
    }
}

/// The JSON document at `url` (or in `data`), decoded back with Foundation's parser.
func exportDocument(_ data: Data) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        throw CocoaError(.propertyListReadCorrupt)
    }
    return object
}
