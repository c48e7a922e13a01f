import Foundation
import TestSupport
import Testing
@testable import Shared

/// Inspected requests' heads in the store: written with their flow at flush, found by the
/// narrowing's `http:` terms in any order, gone with the decrypted content's index.
@Suite struct HTTPRequestIndexTests {
    typealias F = StoreFixtures

    static func ids(_ store: FlowStore, _ terms: [FlowNarrowing.RequestTerm], order: FlowOrder = .newestFirst) async throws -> Set<Int64> {
        var narrowing = FlowNarrowing()
        narrowing.requestTerms = terms
        return Set(try await store.flows(in: order, limit: 10, narrowing: narrowing).map(\.flow.id))
    }

    @Test("a request's head finds its flow, a negated term the others, any of a term's needles will do, and every term must hold")
    func foundByTheirHeads() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        let (a, b, c) = (F.key(1), F.key(2), F.key(3))
        let outcome = try await store.write(FlowStoreBatch(
            flows: [F.record(a, lastSeen: F.uptime(9)), F.record(b, lastSeen: F.uptime(9)), F.record(c, lastSeen: F.uptime(9))],
            requests: [HTTPRequestRecord(flowKey: a, timestamp: F.uptime(2), text: "get /api/items http/1.1\nhost: a.test"),
                       HTTPRequestRecord(flowKey: b, timestamp: F.uptime(3), text: ":method: post\n:path: /upload\nuser-agent: curl/8"),
                       HTTPRequestRecord(flowKey: F.key(4), timestamp: F.uptime(3), text: "get / http/1.1")]))
        #expect(outcome.requestsWritten == 2 && outcome.orphanedRequests == 1)
        let (idA, idB, idC) = (outcome.flowIDs[0], outcome.flowIDs[1], outcome.flowIDs[2])
        let term = { (needles: [String], negated: Bool) in FlowNarrowing.RequestTerm(needles: needles, negated: negated) }
        #expect(try await Self.ids(store, [term(["/api/"], false)]) == [idA])
        #expect(try await Self.ids(store, [term(["/api/"], true)]) == [idB, idC])
        #expect(try await Self.ids(store, [term(["/upload", "/api/"], false)]) == [idA, idB])
        #expect(try await Self.ids(store, [term(["/upload", "/api/"], false), term(["user-agent: curl"], false)]) == [idB])
        #expect(try await Self.ids(store, [term(["/api/"], false)], order: FlowOrder(.received, descending: true)) == [idA])
        await store.close()
    }

    @Test("the heads go with the decrypted content: by age, when it is cleared, and with their flow")
    func goneWithTheDecryptedContent() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        let (a, b) = (F.key(1), F.key(2))
        let outcome = try await store.write(FlowStoreBatch(
            flows: [F.record(a, lastSeen: F.uptime(9)), F.record(b, lastSeen: F.uptime(9))],
            requests: [HTTPRequestRecord(flowKey: a, timestamp: F.uptime(2), text: "get /old http/1.1"),
                       HTTPRequestRecord(flowKey: b, timestamp: F.uptime(8), text: "get /new http/1.1")]))
        let any = [FlowNarrowing.RequestTerm(needles: ["get "], negated: false)]
        #expect(try await Self.ids(store, any) == Set(outcome.flowIDs))
        try await store.prunePlaintext(before: F.date(F.uptime(5)))
        #expect(try await Self.ids(store, any) == [outcome.flowIDs[1]])
        try await store.clearPlaintext()
        #expect(try await Self.ids(store, any).isEmpty)
        // The flows stay: only their decrypted content's index went.
        #expect(try await store.flows(in: .newestFirst, limit: 10).count == 2)
        await store.close()
    }
}
