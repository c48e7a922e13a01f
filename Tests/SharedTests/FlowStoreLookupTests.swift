import Fixtures
import Foundation
import TestSupport
import Testing
@testable import Shared

/// The inspector's reads of one flow: a packet by its place in time order, how many there are, and
/// when the first one was — also when packets were written out of time order.
@Suite struct FlowStoreLookupTests {
    typealias F = StoreFixtures

    @Test("a packet is found by its place in time order, and the first instant is the earliest packet's")
    func packetByPlace() async throws {
        let directory = TemporaryDirectory()
        let store = try FlowStore(databaseURL: F.databaseURL(in: directory))
        let key = F.key(1)
        // Written out of time order, as a capture read offline can be.
        let instants: [Double] = [5, 2, 9, 1, 7]
        try await store.write(FlowStoreBatch(flows: [F.record(key, firstSeen: F.uptime(1), lastSeen: F.uptime(9), packets: 5)],
                                             packets: instants.enumerated().map { F.packet(key, at: F.uptime($0.element), length: UInt32(100 + $0.offset)) }))
        let id = try #require(try await store.recentFlows(limit: 1).first?.id)
        let lengths = try await (0..<5).asyncMap { try await store.packet(forFlow: id, at: $0)?.length }
        #expect(lengths == [103, 101, 100, 104, 102])
        #expect(try await store.packet(forFlow: id, at: 5) == nil)
        #expect(try await store.packetCount(forFlow: id) == 5)
        let first = try #require(try await store.firstPacketDate(forFlow: id))
        #expect(first == (try await store.packet(forFlow: id, at: 0))?.date)
        #expect(try await store.firstPacketDate(forFlow: id + 1) == nil)
        await store.close()
    }
}

private extension Range where Bound == Int {
    func asyncMap<T>(_ transform: (Int) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for value in self { results.append(try await transform(value)) }
        return results
    }
}
