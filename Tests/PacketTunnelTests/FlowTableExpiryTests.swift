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

    @Test func afterABurstHasExpiredTheTableGivesItsRoomBackAndKeepsEveryFlowItsRecordAndItsTurn() {
        var table = FlowTable()
        let burst = 3 * UnusedCapacity.floor
        for host in 1...burst {
            table.observe(FlowFixture.tcp(.outbound, to: FlowFixture.remote(UInt32(host), port: 443)), now: seconds(1))
        }
        table.observe(FlowFixture.dns, now: seconds(2))
        let kept = FlowFixture.tcp(.outbound, to: FlowFixture.remote(UInt32(burst + 1), port: 443))
        table.observe(kept, now: seconds(250))
        table.observe(kept, now: seconds(251))
        table.releaseUnusedCapacity()
        #expect(table.slotCapacity == burst + 2, "nothing given back while the burst is alive")

        #expect(table.expireIdle(now: seconds(301)).count == burst + 1)
        table.releaseUnusedCapacity()

        #expect(table.slotCapacity == 1 && table.count == 1)
        #expect(table.record(for: kept.key)?.packetCount == 2 && table.record(for: kept.key)?.lastSeen == seconds(251))
        #expect(table.observe(kept, now: seconds(260)).record.packetCount == 3, "found by its key in its new slot")
        let next = FlowFixture.tcp(.outbound, to: FlowFixture.remote(UInt32(burst + 2), port: 443))
        table.observe(next, now: seconds(270))
        #expect(table.expireIdle(now: seconds(561)).map(\.key) == [kept.key], "each keeps its turn to expire")
        #expect(table.expireIdle(now: seconds(571)).map(\.key) == [next.key])
    }

    @Test func aDictionaryGivesBackItsRoomOnlyOnceAQuarterOrLessIsUsed() {
        var keys = Dictionary(uniqueKeysWithValues: (0..<(4 * UnusedCapacity.floor)).map { ($0, $0) })
        let grown = keys.capacity
        for key in 0..<(2 * UnusedCapacity.floor) { keys[key] = nil }
        keys.releaseUnusedCapacity()
        #expect(keys.capacity == grown, "half used: kept")
        for key in (2 * UnusedCapacity.floor)..<(4 * UnusedCapacity.floor - 10) { keys[key] = nil }
        keys.releaseUnusedCapacity()
        #expect(keys.capacity < grown && keys.capacity >= UnusedCapacity.floor)
        #expect(keys == Dictionary(uniqueKeysWithValues: ((4 * UnusedCapacity.floor - 10)..<(4 * UnusedCapacity.floor)).map { ($0, $0) }))
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
