import Foundation
import Testing
import TestSupport
@testable import Shared

/// What a DNS flow asked and how it was answered, kept by the history (schema 14).
@Suite struct DNSExchangeStoreTests {
    typealias F = StoreFixtures

    static func record(_ number: Int, _ exchange: DNSExchange?) -> FlowRecord {
        var record = F.record(F.key(number, proto: .udp), packets: 2)
        record.dnsExchange = exchange
        return record
    }

    static let answered = DNSExchange(question: "www.example.test", questionType: 1,
                                      reply: DNSReply(responseCode: 0, answerCount: 3, answers: ["edge.example.test", "198.19.0.2"]))
    static let unanswered = DNSExchange(question: "silent.example.test", questionType: 28)
    static let noSuchName = DNSExchange(question: "gone.example.test", questionType: 1,
                                        reply: DNSReply(responseCode: 3, answerCount: 0, answers: []))

    @Test("a question, with or without its reply, comes back as written, and names its flow")
    func roundTrip() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        let exchanges = [Self.answered, Self.unanswered, Self.noSuchName, nil]
        try await store.write(FlowStoreBatch(flows: exchanges.enumerated().map { Self.record($0.offset + 1, $0.element) }, packets: []))
        let read = Dictionary(uniqueKeysWithValues: try await store.recentFlows(limit: 10).map { ($0.key, $0) })
        for (index, exchange) in exchanges.enumerated() {
            let flow = try #require(read[F.key(index + 1, proto: .udp)])
            #expect(flow.dnsExchange == exchange)
            #expect(flow.name == exchange.map { FlowName(sni: nil, resolved: nil, dnsQuery: $0.question) } ?? nil)
        }
        await store.close()
    }

    @Test("the reply arriving in a later record completes the question already stored")
    func replyLater() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        try await store.write(FlowStoreBatch(flows: [Self.record(1, DNSExchange(question: "www.example.test", questionType: 1))], packets: []))
        try await store.write(FlowStoreBatch(flows: [Self.record(1, Self.answered)], packets: []))
        #expect(try await store.recentFlows(limit: 10).map(\.dnsExchange) == [Self.answered])
        await store.close()
    }

    @Test("a lookup is found by the name it asked, and sorted by it among hosts")
    func searchAndOrder() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        var named = F.record(F.key(9))
        named.sni = "middle.example.test"
        try await store.write(FlowStoreBatch(flows: [Self.record(1, Self.answered), Self.record(2, Self.noSuchName), named], packets: []))
        var narrowing = FlowNarrowing()
        narrowing.nameNeedles = [["gone.example"]]
        let found = try await store.flows(in: FlowOrder(.time, descending: true), limit: 10, narrowing: narrowing)
        #expect(found.map(\.flow.dnsExchange) == [Self.noSuchName])
        let byHost = try await store.flows(in: FlowOrder(.host, descending: false), limit: 10)
        #expect(byHost.map { $0.flow.name?.text } == ["gone.example.test", "middle.example.test", "www.example.test"])
        await store.close()
    }

    @Test("a reply's columns without a question are a corrupt row, said so, never a guess")
    func corruptRow() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        try await store.write(FlowStoreBatch(flows: [Self.record(1, Self.answered)], packets: []))
        await store.close()
        let raw = try SQLiteConnection(path: F.databaseURL(in: directory).path, mode: .readWriteCreate)
        try raw.execute("UPDATE flows SET dns_query = NULL")
        raw.close()
        let reopened = try F.store(in: directory)
        await #expect(throws: StoreError.self) { try await reopened.recentFlows(limit: 10) }
        await reopened.close()
    }

    @Test("a history of the schema before DNS exchanges gains their columns and loses nothing")
    func migration() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        try await store.write(FlowStoreBatch(flows: [Self.record(1, nil), F.record(F.key(2))], packets: []))
        let before = try await store.recentFlows(limit: 10)
        await store.close()
        let old = try SQLiteConnection(path: F.databaseURL(in: directory).path, mode: .readWriteCreate)
        try old.execute("\(F.droppingColumnsAdded(after: 13)) PRAGMA user_version = 13")
        #expect(try old.integer("SELECT count(*) FROM pragma_table_info('flows') WHERE name LIKE 'dns_query%'") == 0)
        old.close()
        let upgraded = try F.store(in: directory)
        #expect(try await upgraded.recentFlows(limit: 10) == before)
        try await upgraded.write(FlowStoreBatch(flows: [Self.record(3, Self.answered)], packets: []))
        #expect(try await upgraded.recentFlows(limit: 10).compactMap(\.dnsExchange) == [Self.answered])
        await upgraded.close()
    }
}
