import Fixtures
import Foundation
import Testing
import Shared
@testable import PacketTunnel

/// How several workers divide one capture's flows among themselves.
@Suite struct CaptureShardTests {
    static func endpoint(_ address: String, _ port: UInt16) -> IPEndpoint {
        IPEndpoint(address: IPAddress(parsing: address)!, port: port)
    }

    @Test("every flow belongs to exactly one share, whichever way its packets go")
    func everyFlowHasExactlyOneShare() {
        var random = SeededRandom(seed: 4)
        for count in [1, 2, 3, 5] {
            let shares = (0..<count).map { CaptureShard(index: $0, count: count) }
            var owned = Array(repeating: 0, count: count)
            for _ in 0..<2_000 {
                let a = Self.endpoint("198.18.\(random.next() % 256).\(random.next() % 256)", UInt16(truncatingIfNeeded: random.next()))
                let b = Self.endpoint("fd00::" + String(random.next() % 65_536, radix: 16), UInt16(truncatingIfNeeded: random.next()))
                let outward = FlowKey(proto: .tcp, source: a, destination: b)
                let back = FlowKey(proto: .tcp, source: b, destination: a)
                let owners = shares.filter { $0.owns(outward) }
                #expect(owners.count == 1)
                #expect(shares.filter { $0.owns(back) } == owners)
                if let owner = owners.first { owned[owner.index] += 1 }
            }
            // Spread, not all in one: each share takes a fair part (well within chance).
            #expect(owned.allSatisfy { $0 > 2_000 / count / 2 }, "\(owned)")
        }
    }

    @Test("another share's DNS is read for names, the rest of its traffic skipped")
    func anotherSharesDNSIsReadForNamesOnly() throws {
        let client = Self.endpoint("198.18.0.2", 40_000)
        let resolver = Self.endpoint("198.19.0.53", 53)
        let web = Self.endpoint("198.19.0.80", 80)
        let reply = try PacketParser.parse(PacketEmitter.udp(source: resolver, destination: client, payload: Data([0, 1])))
        let query = try PacketParser.parse(PacketEmitter.udp(source: client, destination: resolver, payload: Data([0, 1])))
        let http = try PacketParser.parse(PacketEmitter.udp(source: client, destination: web, payload: Data([0, 1])))
        let shares = (0..<2).map { CaptureShard(index: $0, count: 2) }
        for packet in [reply, query, http] {
            let key = packet.flowKey
            let admissions = shares.map { $0.admission(of: packet, key: key) }
            #expect(admissions.filter { $0 == .count }.count == 1)
            let other = admissions.first { $0 != .count }
            #expect(other == (packet.udp?.sourcePort == 53 || packet.udp?.destinationPort == 53 ? .learnNamesOnly : .skip))
        }
        #expect(CaptureShard.whole.admission(of: http, key: http.flowKey) == .count)
    }

    @Test("conversations that began at the same instant come in capture order, read by one worker or by several")
    func tiesKeepCaptureOrder() throws {
        let datagrams = try (0..<40).map { index in
            try PacketEmitter.udp(source: Self.endpoint("198.18.0.\(index % 7 + 2)", UInt16(40_000 + index)),
                                  destination: Self.endpoint("198.19.0.1", 9_000), payload: Data([1]))
        }
        func read(_ shard: CaptureShard) -> [AnalyzedCapture.Conversation] {
            let analyzer = CaptureAnalyzer(shard: shard)
            for datagram in datagrams {
                datagram.withUnsafeBytes { analyzer.read(datagram: $0, originalLength: $0.count, nanosecondsSince1970: 1_796_000_000_000_000_000) }
            }
            return analyzer.conversations()
        }
        let inCaptureOrder = (0..<40).map { UInt16(40_000 + $0) }
        #expect(read(.whole).map(\.record.key.endpointA.port) == inCaptureOrder)
        for count in [2, 3, 5] {
            let merged = CaptureShard.merged((0..<count).map { read(CaptureShard(index: $0, count: count)) })
            #expect(merged.map(\.record.key.endpointA.port) == inCaptureOrder, "\(count) workers")
        }
    }

    @Test("the shares' conversations merge in the order they began, the lower share first at equal times")
    func sharesMergeByStartThenShare() {
        func conversation(_ port: UInt16, began: UInt64) -> AnalyzedCapture.Conversation {
            let key = FlowKey(proto: .udp, source: Self.endpoint("198.18.0.2", port), destination: Self.endpoint("198.19.0.1", 53))
            return AnalyzedCapture.Conversation(record: FlowRecord(key: key, firstSeen: began, tlsStatus: .plaintext), client: nil)
        }
        let first = [conversation(1, began: 10), conversation(2, began: 30), conversation(3, began: 30)]
        let second = [conversation(4, began: 5), conversation(5, began: 30), conversation(6, began: 40)]
        let third: [AnalyzedCapture.Conversation] = []
        let merged = CaptureShard.merged([first, second, third])
        #expect(merged.map(\.record.key.endpointA.port) == [4, 1, 2, 3, 5, 6])
        #expect(CaptureShard.merged([second]).map(\.record.key.endpointA.port) == [4, 5, 6])
        #expect(CaptureShard.merged([]).isEmpty)
    }
}
