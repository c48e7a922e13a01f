import Testing
import Shared
@testable import PacketTunnel

@Suite struct FlowTableExpiryTests {
    @Test func eachProtocolExpiresAfterItsOwnTimeoutDNSFirst() {
        var table = FlowTable()
        for packet in [FlowFixture.https, FlowFixture.dns, FlowFixture.quic, FlowFixture.echo] {
            table.observe(packet, now: 0)
        }

        #expect(table.expireIdle(now: seconds(10) - 1).isEmpty)
        #expect(table.expireIdle(now: seconds(10)).map(\.key) == [FlowFixture.dns.key])
        #expect(table.expireIdle(now: seconds(30)).map(\.key) == [FlowFixture.echo.key])
        #expect(table.expireIdle(now: seconds(120)).map(\.key) == [FlowFixture.quic.key])
        #expect(table.expireIdle(now: seconds(299)).isEmpty)
        #expect(table.expireIdle(now: seconds(300)).map(\.key) == [FlowFixture.https.key])
        #expect(table.count == 0)
    }

    @Test func onlyFlowsIdleSinceTheirLastPacketExpireNotTheOldestCreated() {
        var table = FlowTable(config: .init(idleTimeout: seconds(100)))
        let other = FlowFixture.tcp(.outbound, to: FlowFixture.remote(2, port: 443))
        table.observe(FlowFixture.https, now: 0)
        table.observe(other, now: seconds(1))
        table.observe(FlowFixture.https, now: seconds(50))

        #expect(table.expireIdle(now: seconds(101)).map(\.key) == [other.key])
        #expect(table.record(for: FlowFixture.https.key)?.lastSeen == seconds(50))
        #expect(table.expireIdle(now: seconds(150)).map(\.key) == [FlowFixture.https.key])
    }

    @Test func expiredFlowsAreReturnedAndNotAlsoDrained() {
        var table = FlowTable()
        let flow = table.observe(FlowFixture.dns, now: 0)
        #expect(table.expireIdle(now: seconds(60)) == [flow.record])
        #expect(table.drainClosed().isEmpty)
        #expect(table.observe(FlowFixture.dns, now: seconds(61)).record.firstSeen == seconds(61))
    }

    @Test func aSweepPastManyFreshFlowsTakesOnlyTheIdleOne() {
        var table = FlowTable()
        for host in 1...1_000 {
            table.observe(FlowFixture.tcp(.outbound, to: FlowFixture.remote(UInt32(host), port: 443)), now: seconds(1))
        }
        table.observe(FlowFixture.dns, now: 0)
        #expect(table.expireIdle(now: seconds(10)).map(\.key) == [FlowFixture.dns.key])
        #expect(table.count == 1_000)
    }

    @Test func aNowBeforeTheLastPacketExpiresNothing() {
        var table = FlowTable()
        table.observe(FlowFixture.dns, now: seconds(100))
        #expect(table.expireIdle(now: seconds(1)).isEmpty)
        #expect(table.count == 1)
    }

    @Test func timeoutsFollowTheKindOfFlow() {
        let timeouts = FlowTable.IdleTimeouts()
        #expect(timeouts[FlowTable.IdleClass(FlowFixture.dns.key)] == seconds(10))
        #expect(timeouts[FlowTable.IdleClass(FlowFixture.quic.key)] == seconds(120))
        #expect(timeouts[FlowTable.IdleClass(FlowFixture.echo.key)] == seconds(30))
        #expect(timeouts[FlowTable.IdleClass(FlowFixture.https.key)] == seconds(300))
        #expect(FlowTable.IdleClass(FlowFixture.tcp(.outbound, to: FlowFixture.remote(port: 53)).key) == .tcp)
    }
}
