import Foundation
import Shared
import TestSupport
import Testing
import App

/// The run's summary asks the history for its session's flows: only its own, all of them, in the
/// order the table lists them — and when the history cannot answer, it says so.
@Suite("A session's connections, asked of the history")
struct SessionHistoryTests {
    static func record(_ port: UInt16, lastSeen: UInt64) -> FlowRecord {
        let device = IPEndpoint(address: TunnelAddressing.ipv4Address, port: port)
        let server = IPEndpoint(address: IPAddress(parsing: "198.19.0.2")!, port: 80)
        var record = FlowRecord(key: FlowKey(proto: .tcp, source: device, destination: server), firstSeen: 1_000,
                                tlsStatus: .plaintext)
        record.lastSeen = lastSeen
        return record
    }

    @Test("only the session's own flows come back, least recently seen first, whatever another session wrote")
    func ownFlowsInOrder() async throws {
        let directory = TemporaryDirectory()
        let mine = try FlowStore(dataDirectory: directory.url, origin: "run a")
        let other = try FlowStore(dataDirectory: directory.url, origin: "run b")
        try await mine.upsertFlow(Self.record(40_001, lastSeen: 3_000))
        try await other.upsertFlow(Self.record(40_009, lastSeen: 2_000))
        try await mine.upsertFlow(Self.record(40_002, lastSeen: 1_500))
        let session = try #require(await mine.sessionID)
        let flows = try await SessionHistory(store: mine).flows(ofSession: session)
        let devicePorts = flows.map { flow in
            [flow.key.endpointA, flow.key.endpointB].first { $0.address == TunnelAddressing.ipv4Address }?.port
        }
        #expect(devicePorts == [40_002, 40_001])
        #expect(flows.count == 2 && flows.allSatisfy { $0.session == session })
        guard case .known(let connections) = await SessionHistory(store: mine).connections(ofSession: session) else {
            Issue.record("a readable history gave no connections")
            return
        }
        #expect(connections.count == 2)
        await mine.close()
        await other.close()
    }

    @Test("a session that never wrote has no connections, which is a fact and not a failure")
    func noSessionNoConnections() async throws {
        let directory = TemporaryDirectory()
        let store = try FlowStore(dataDirectory: directory.url)
        #expect(await SessionHistory(store: store).connections(ofSession: nil) == .known([]))
        await store.close()
    }

    @Test("a history that cannot be read is said in the summary, never shown as 0 connections")
    func unreadableHistoryIsSaid() async throws {
        let directory = TemporaryDirectory()
        let store = try FlowStore(dataDirectory: directory.url)
        try await store.upsertFlow(Self.record(40_001, lastSeen: 3_000))
        let session = await store.sessionID
        await store.close()
        let connections = await SessionHistory(store: store).connections(ofSession: session)
        guard case .unreadable(let reason) = connections else {
            Issue.record("a closed history was read as \(connections)")
            return
        }
        #expect(reason == StoreError.closed.description)
        let summary = RunSummary(command: "curl", exitStatus: 0, signal: nil, connections: connections, captureFiles: [],
                                 databasePath: "/d/db")
        #expect(summary.text().contains("connections: not known — the history could not be read: \(reason)"))
        #expect(!summary.text().contains("0 connections"))
        let object = try #require(JSONSerialization.jsonObject(with: Data(summary.json().utf8)) as? [String: Any])
        #expect(object["connections"] is NSNull && object["historyProblem"] as? String == reason)
    }
}
