import Testing
import Shared
@testable import PacketTunnel

/// One 5-tuple, connection after connection (the kernel reuses source ports), and a full table
/// that refuses rather than cut.
@Suite struct FlowTableLifetimeTests {
    let web = FlowFixture.remote(port: 443)

    @Test("a retransmitted SYN stays in its flow; a SYN with another ISN on an open flow is a new lifetime")
    func aSYNWithAnotherISNIsANewLifetime() {
        var table = FlowTable()
        table.observe(FlowFixture.tcp(.outbound, to: web, flags: [.syn], sequence: 100), now: 1)
        let retransmitted = table.observe(FlowFixture.tcp(.outbound, to: web, flags: [.syn], sequence: 100), now: 2)
        table.observe(FlowFixture.tcp(.outbound, to: web, payload: 10), now: 3)
        #expect(retransmitted.record.packetCount == 2 && table.drainClosed().isEmpty)

        // The old connection's end was never seen; a fresh ISN says it is over.
        let next = table.observe(FlowFixture.tcp(.outbound, to: web, flags: [.syn], sequence: 9_000), now: 20)
        #expect(next.record.firstSeen == 20 && next.record.packetCount == 1)
        let old = table.drainClosed()
        #expect(old.map(\.reason) == [.ended] && old.first?.record.packetCount == 3 && old.first?.record.firstSeen == 1)
        #expect(table.count == 1)
    }

    @Test("a SYN on a closing flow starts the next connection at once, the old lifetime keeping its last ACK")
    func aSYNOnAClosingFlowStartsTheNextConnection() {
        var table = FlowTable()
        table.observe(FlowFixture.tcp(.outbound, to: web, flags: [.syn], sequence: 100), now: 1)
        table.observe(FlowFixture.tcp(.inbound, to: web, flags: [.fin, .ack]), now: 2)
        table.observe(FlowFixture.tcp(.outbound, to: web, flags: [.fin, .ack]), now: 3)
        table.observe(FlowFixture.tcp(.inbound, to: web, flags: [.ack]), now: 4)
        // The same ISN too: what ended is over, whatever the next SYN says.
        let next = table.observe(FlowFixture.tcp(.outbound, to: web, flags: [.syn], sequence: 100), now: 5)
        #expect(next.record.firstSeen == 5 && next.record.packetCount == 1)
        let old = table.drainClosed()
        #expect(old.map(\.record.packetCount) == [4] && old.map(\.reason) == [.ended])
    }

    @Test("a full table of live flows refuses a new one and cuts none; an ended or idle flow makes room")
    func aFullTableRefusesUntilAFlowIsOver() {
        var table = FlowTable(config: .init(maxFlows: 3))
        let flows = (1...3).map { FlowFixture.tcp(.outbound, to: FlowFixture.remote($0, port: 443), flags: [.syn]) }
        for (index, flow) in flows.enumerated() { table.observe(flow, now: UInt64(index)) }
        let newcomer = FlowFixture.tcp(.outbound, to: FlowFixture.remote(9, port: 443), flags: [.syn])

        #expect(table.observeOrRefuse(newcomer, now: seconds(299)) == nil)
        #expect(table.count == 3 && table.drainClosed().isEmpty && table.record(for: newcomer.key) == nil)
        // A packet of a flow held is still counted.
        #expect(table.observeOrRefuse(flows[0], now: seconds(299))?.record.packetCount == 2)

        // One connection ends: its closing lifetime makes room at once.
        table.observe(FlowFixture.tcp(.inbound, to: FlowFixture.remote(2, port: 443), flags: [.rst]), now: seconds(299))
        #expect(table.observeOrRefuse(newcomer, now: seconds(299)) != nil)
        #expect(table.drainClosed().map(\.record.key) == [flows[1].key])

        // Full again; the flow silent past its idle timeout (five minutes) is the one given up.
        let another = FlowFixture.tcp(.outbound, to: FlowFixture.remote(10, port: 443), flags: [.syn])
        #expect(table.observeOrRefuse(another, now: seconds(300) + 2)?.record.firstSeen == seconds(300) + 2)
        let evicted = table.drainClosed()
        #expect(evicted.map(\.record.key) == [flows[2].key] && evicted.map(\.reason) == [.evicted])
        #expect(table.count == 3)
    }
}
