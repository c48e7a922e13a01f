import Foundation
import Testing
import Shared
@testable import PacketTunnel

/// The table remembers where the 5-tuples met lately were (`recentSlots`), by an unkeyed place:
/// what it remembers must never be taken for another flow's, or for a flow that left.
@Suite("The flow table's remembered places")
struct FlowTableRecentSlotsTests {
    /// Two UDP flows from the device whose keys share one remembered place.
    static func twoFlowsInOnePlace() -> (FlowFixture.Packet, FlowFixture.Packet) {
        var byPlace: [Int: FlowFixture.Packet] = [:]
        for port in UInt16(1_000)..<UInt16(60_000) {
            let packet = FlowFixture.udp(.outbound, to: FlowFixture.remote(port: port))
            let place = FlowTable.recentPlace(of: packet.key)
            if let earlier = byPlace[place] { return (earlier, packet) }
            byPlace[place] = packet
        }
        preconditionFailure("59 000 keys over 4 096 places always share one")
    }

    @Test("Two flows remembered in one place each count their own packets")
    func flowsSharingAPlaceKeepTheirOwnCounts() {
        let (one, other) = Self.twoFlowsInOnePlace()
        var table = FlowTable()
        for round in 1...3 {
            #expect(table.observe(one, now: UInt64(2 * round)).record.packetCount == UInt64(round))
            #expect(table.observe(other, now: UInt64(2 * round + 1)).record.packetCount == UInt64(round))
        }
        #expect(table.count == 2)
    }

    @Test("A flow that left is not found where it was remembered, and comes back as a new lifetime")
    func aFlowThatLeftIsNotFoundWhereItWas() {
        var table = FlowTable(config: .init(maxFlows: 2, whenFull: .endLeastRecent))
        let first = FlowFixture.udp(.outbound, to: FlowFixture.remote(1, port: 5000))
        let second = FlowFixture.udp(.outbound, to: FlowFixture.remote(2, port: 5000))
        let third = FlowFixture.udp(.outbound, to: FlowFixture.remote(3, port: 5000))
        table.observe(first, now: 1)
        table.observe(first, now: 2)
        table.observe(second, now: 3)
        table.observe(third, now: 4)                         // ends `first`; its slot is `third`'s now
        #expect(table.record(for: first.key) == nil)
        #expect(table.record(for: third.key)?.packetCount == 1)
        #expect(table.observe(first, now: 5).record.packetCount == 1)
    }

    @Test("The key a free slot holds (protocol 255, both ends 0.0.0.0:0) is not found in it once its flow left")
    func theFreeSlotsKeyIsNotFoundInAFreeSlot() throws {
        // A datagram of protocol 255 from 0.0.0.0 to 0.0.0.0: the key a free slot carries.
        var header: [UInt8] = [0x45, 0, 0, 20, 0, 0, 0, 0, 64, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        header[10] = 0xBA; header[11] = 0xFF                  // any checksum: the table reads none
        let parsed = try PacketParser.parse(Data(header))
        let packet = FlowFixture.Packet(parsed: parsed, direction: .outbound)
        #expect(packet.key.proto == .other)
        var table = FlowTable(config: .init(idleTimeout: 10))
        table.observe(packet, now: 1)
        #expect(table.expireIdle(now: 1_000).count == 1)
        #expect(table.count == 0)
        #expect(table.record(for: packet.key) == nil)
        #expect(table.observe(packet, now: 2_000).record.packetCount == 1)
    }
}
