import Fixtures
import Testing
import Shared
@testable import PacketTunnel

@Suite struct FlowTableClosingTests {
    let web = FlowFixture.remote(port: 443)

    @Test("a FIN from each side ends the flow, which lingers closing so the last ACK is its own, then leaves")
    func aFINFromEachSideEndsTheFlowAndTheLastACKIsStillItsOwn() {
        var table = FlowTable()
        table.observe(FlowFixture.tcp(.outbound, to: web, flags: [.syn]), now: 1)
        let stillOpen = table.observe(FlowFixture.tcp(.outbound, to: web, flags: [.fin, .ack]), now: 2)
        #expect(table.count == 1 && table.drainClosed().isEmpty)

        let closing = table.observe(FlowFixture.tcp(.inbound, to: web, flags: [.fin, .ack]), now: 3)
        #expect(closing.record.packetCount == 3 && closing.packetsIn == 1 && closing.record.lastSeen == 3)
        let lastACK = table.observe(FlowFixture.tcp(.outbound, to: web, flags: [.ack]), now: 4)
        let retransmittedFIN = table.observe(FlowFixture.tcp(.inbound, to: web, flags: [.fin, .ack]), now: 5)
        #expect(lastACK.record.firstSeen == 1 && retransmittedFIN.record.packetCount == 5)
        #expect(table.count == 1 && table.drainClosed().isEmpty)
        #expect(stillOpen.record.packetCount == 2)

        // The linger runs from the last packet, and its end is a close, not an idle expiry.
        #expect(table.expireIdle(now: 5 + table.config.closingLinger - 1).isEmpty && table.count == 1)
        #expect(table.expireIdle(now: 5 + table.config.closingLinger).isEmpty)
        #expect(table.count == 0 && table.drainClosed() == [.init(record: retransmittedFIN.record, reason: .ended)])
    }

    @Test func repeatedFINsFromOneSideLeaveTheFlowOpen() {
        var table = FlowTable()
        for now in 1...3 { table.observe(FlowFixture.tcp(.outbound, to: web, flags: [.fin, .ack]), now: UInt64(now)) }
        table.observe(FlowFixture.tcp(.inbound, to: web, flags: [.ack]), now: 4)
        #expect(table.count == 1 && table.drainClosed().isEmpty)
        #expect(table.expireIdle(now: 4 + table.config.closingLinger).isEmpty && table.count == 1)
    }

    @Test(arguments: Direction.allCases)
    func anRSTFromEitherSideEndsTheFlowAtOnceAndItLingersOnlyItsLinger(direction: Direction) {
        var table = FlowTable()
        table.observe(FlowFixture.tcp(.outbound, to: web, flags: [.syn]), now: 1)
        let reset = table.observe(FlowFixture.tcp(direction, to: web, flags: [.rst]), now: 2)
        #expect(reset.record.packetCount == 2 && table.count == 1)
        #expect(table.expireIdle(now: 2 + table.config.closingLinger).isEmpty)
        #expect(table.count == 0)
        #expect(table.drainClosed() == [.init(record: reset.record, reason: .ended)])
    }

    @Test func aFiveTupleSeenAgainAfterItsCloseStartsANewLifetimeFromZero() {
        var table = FlowTable()
        table.observe(FlowFixture.tcp(.outbound, to: web, payload: 500), now: 1)
        table.observe(FlowFixture.tcp(.inbound, to: web, flags: [.rst]), now: 2)
        let reborn = table.observe(FlowFixture.tcp(.outbound, to: web, flags: [.syn]), now: 10)

        #expect(reborn.record.firstSeen == 10 && reborn.record.packetCount == 1 && reborn.packetsIn == 0)
        #expect(reborn.record.bytesOut == UInt64(FlowFixture.tcp(.outbound, to: web, flags: [.syn]).length))
        #expect(table.drainClosed().map(\.reason) == [.ended] && table.count == 1)
    }

    @Test func offlineAFullTableEndsTheLeastRecentlyUsedFlowNotTheOldestCreated() {
        var table = FlowTable(config: .init(maxFlows: 3, whenFull: .endLeastRecent))
        let packets = (1...4).map { FlowFixture.tcp(.outbound, to: FlowFixture.remote($0, port: 443)) }
        for (index, packet) in packets.prefix(3).enumerated() { table.observe(packet, now: UInt64(index)) }
        table.observe(packets[0], now: 10)
        table.observe(packets[3], now: 11)

        let evicted = table.drainClosed()
        #expect(evicted.map(\.record.key) == [packets[1].key] && evicted.map(\.reason) == [.evicted])
        #expect(evicted.first?.record.lastSeen == 1)
        #expect(table.count == 3 && table.record(for: packets[0].key)?.packetCount == 2)
    }

    @Test func drainingEmptiesTheClosedList() {
        var table = FlowTable(config: .init(maxFlows: 1, whenFull: .endLeastRecent))
        table.observe(FlowFixture.udp(.outbound, to: FlowFixture.remote(1, port: 443)), now: 1)
        table.observe(FlowFixture.udp(.outbound, to: FlowFixture.remote(2, port: 443)), now: 2)
        #expect(table.drainClosed().count == 1)
        #expect(table.drainClosed().isEmpty)
    }

    @Test func offlineAStormOfTenThousandFlowsStaysWithinTheCapAndEndsEachFlowOnce() {
        var table = FlowTable(config: .init(maxFlows: 4096, whenFull: .endLeastRecent))
        var closedKeys: [FlowKey] = []
        var created: [FlowKey] = []
        for index in 0..<10_000 {
            let remote = FlowFixture.remote(UInt32(1 + index / 1_000), port: UInt16(1_024 + index % 1_000))
            let packet = FlowFixture.udp(.outbound, to: remote)
            table.observe(packet, now: UInt64(index))
            if index % 3 == 0 { table.observe(FlowFixture.udp(.inbound, to: remote), now: UInt64(index)) }
            created.append(packet.key)
            #expect(table.count <= table.config.maxFlows)
            if index % 997 == 0 { closedKeys += table.drainClosed().map(\.record.key) }
        }
        closedKeys += table.drainClosed().map(\.record.key)

        #expect(table.count == table.config.maxFlows)
        #expect(closedKeys.count == 10_000 - table.config.maxFlows)
        #expect(closedKeys == Array(created.prefix(closedKeys.count)))
        #expect(Set(closedKeys).isDisjoint(with: table.activeRecords().map(\.key)))
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func everySyntheticPacketIsCountedInExactlyOneRecord(seed: UInt64) {
        var traffic = SyntheticTraffic(seed: seed)
        var table = FlowTable(config: .init(maxFlows: 64, whenFull: .endLeastRecent))
        var records: [FlowRecord] = []
        var (packets, bytes): (UInt64, UInt64) = (0, 0)
        for _ in 0..<5_000 {
            let sent = traffic.next()
            let parsed = try! PacketParser.parse(sent.bytes)
            let direction: Direction = parsed.ip.source == TunnelAddressing.ipv4Address
                || parsed.ip.source == TunnelAddressing.ipv6Address ? .outbound : .inbound
            table.observe(parsed, direction: direction, length: UInt32(sent.bytes.count), now: sent.offsetNanoseconds)
            packets += 1
            bytes += UInt64(sent.bytes.count)
            records += table.drainClosed().map(\.record)
            records += table.expireIdle(now: sent.offsetNanoseconds)
        }
        records += table.drainClosed().map(\.record) + table.activeRecords()

        #expect(records.reduce(0) { $0 + $1.packetCount } == packets)
        #expect(records.reduce(0) { $0 + $1.bytesOut + $1.bytesIn } == bytes)
        #expect(table.count <= 64)
    }
}
