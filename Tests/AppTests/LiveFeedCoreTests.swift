import Foundation
import Testing
@testable import App
import Shared

/// The live feed's pure core: the anchor, the local/remote split through `LivePacket`, the
/// throughput window, the talkers, the capped recents.
struct LiveFeedCoreTests {
    static let local4 = TunnelAddressing.ipv4Address
    static let remote4 = IPAddress(parsing: "198.19.5.7")!
    static let remote6 = IPAddress(parsing: "fd00:99::7")!

    static func packed(timestamp: UInt64 = 0, from source: IPEndpoint, to destination: IPEndpoint,
                       direction: Direction, length: UInt32 = 100) -> PackedPacketMeta {
        PackedPacketMeta(PacketMeta(timestamp: timestamp, flowKey: FlowKey(proto: .tcp, source: source, destination: destination),
                                    direction: direction, length: length, tcpFlags: .syn,
                                    capture: CaptureLocation(fileSequence: 3, recordOffset: 24)))
    }

    @Test("the anchor turns monotonic instants after and before it into dates, nanosecond spacing kept")
    func anchorBothWays() {
        let anchor = MonotonicAnchor(uptimeNanoseconds: 5_000_000_000, wallClockNanosecondsSince1970: 1_700_000_000_000_000_000)
        #expect(anchor.nanosecondsSince1970(forUptime: 5_000_000_250) == 1_700_000_000_000_000_250)
        #expect(anchor.nanosecondsSince1970(forUptime: 4_000_000_000) == 1_699_999_999_000_000_000)
        #expect(anchor.date(forUptime: 7_000_000_000).timeIntervalSince1970 == 1_700_000_002)
        let first = anchor.date(forUptime: 6_000_000_000)
        let second = anchor.date(forUptime: 6_500_000_000)
        #expect(abs(second.timeIntervalSince(first) - 0.5) < 1e-6)
    }

    @Test("a live packet takes the reader's sequence as its id, its date from the anchor, and its ends from the split")
    func livePacketFields() throws {
        let anchor = MonotonicAnchor(uptimeNanoseconds: 1_000, wallClockNanosecondsSince1970: 1_000_000_000_000)
        let local = IPEndpoint(address: Self.local4, port: 40_000)
        let remote = IPEndpoint(address: Self.remote4, port: 443)
        let packet = try LivePacket(Self.packed(timestamp: 1_000 + 2_000_000_000, from: remote, to: local, direction: .inbound),
                                    sequence: 41, anchor: anchor, localAddresses: TunnelAddressing.localAddresses)
        #expect(packet.id == 41)
        #expect(packet.date.timeIntervalSince1970 == 1_002)
        #expect(packet.endpoints == FlowEndpoints(local: local, remote: remote))
        #expect(packet.direction == .inbound && packet.length == 100 && packet.tcpFlags == .syn)
        #expect(packet.capture == CaptureLocation(fileSequence: 3, recordOffset: 24))
    }

    @Test("the split works whichever end sorts first, in IPv6 too, and refuses to guess when neither or both ends are local")
    func splitBothOrdersAndRefusal() throws {
        let anchor = MonotonicAnchor(uptimeNanoseconds: 0, wallClockNanosecondsSince1970: 0)
        let local6 = IPEndpoint(address: TunnelAddressing.ipv6Address, port: 5000)
        for remote in [IPEndpoint(address: Self.remote6, port: 443), IPEndpoint(address: IPAddress(parsing: "fd00::1")!, port: 443)] {
            let packet = try LivePacket(Self.packed(from: local6, to: remote, direction: .outbound), sequence: 0,
                                        anchor: anchor, localAddresses: TunnelAddressing.localAddresses)
            #expect(packet.endpoints?.local == local6)
            #expect(packet.endpoints?.remote == remote)
        }
        let strangers = try LivePacket(Self.packed(from: IPEndpoint(address: Self.remote4, port: 1),
                                                   to: IPEndpoint(address: IPAddress(parsing: "198.19.9.9")!, port: 2),
                                                   direction: .outbound),
                                       sequence: 0, anchor: anchor, localAddresses: TunnelAddressing.localAddresses)
        #expect(strangers.endpoints == nil)
        let both = try LivePacket(Self.packed(from: IPEndpoint(address: Self.local4, port: 1), to: IPEndpoint(address: Self.local4, port: 2),
                                              direction: .outbound),
                                  sequence: 0, anchor: anchor, localAddresses: TunnelAddressing.localAddresses)
        #expect(both.endpoints == nil)
    }

    @Test("a slot that describes no packet is refused with the reason, not turned into one")
    func unreadableSlot() {
        var record = Self.packed(from: IPEndpoint(address: Self.local4, port: 1), to: IPEndpoint(address: Self.remote4, port: 2),
                                 direction: .outbound)
        record.ipVersion = 5
        #expect(throws: PackedPacketMetaError.unknownIPVersion(5)) {
            try LivePacket(record, sequence: 0, anchor: MonotonicAnchor(uptimeNanoseconds: 0, wallClockNanosecondsSince1970: 0),
                           localAddresses: [])
        }
    }

    @Test("the window zero-fills every quiet interval and always returns a whole window")
    func windowZeroFill() {
        var window = ThroughputWindow(bucketDuration: 1, windowDuration: 10)
        window.add(date: Date(timeIntervalSince1970: 1_000.2), direction: .inbound, length: 300)
        window.add(date: Date(timeIntervalSince1970: 1_000.9), direction: .outbound, length: 40)
        window.add(date: Date(timeIntervalSince1970: 1_004.5), direction: .inbound, length: 7)
        let samples = window.samples(asOf: Date(timeIntervalSince1970: 1_005.5))
        #expect(samples.count == 10)
        #expect(samples.first?.start == Date(timeIntervalSince1970: 996))
        #expect(samples.map(\.bytesIn) == [0, 0, 0, 0, 300, 0, 0, 0, 7, 0])
        #expect(samples.map(\.bytesOut) == [0, 0, 0, 0, 40, 0, 0, 0, 0, 0])
        #expect(samples[4].bytesInPerSecond == 300)
    }

    @Test("the window rolls: a bucket reused a window later starts from zero, and old buckets leave the samples")
    func windowRoll() {
        var window = ThroughputWindow(bucketDuration: 1, windowDuration: 4)
        window.add(date: Date(timeIntervalSince1970: 100), direction: .inbound, length: 10)
        window.add(date: Date(timeIntervalSince1970: 104), direction: .inbound, length: 1)   // same slot as 100
        let samples = window.samples(asOf: Date(timeIntervalSince1970: 104))
        #expect(samples.map(\.bytesIn) == [0, 0, 0, 1])
        #expect(window.samples(asOf: Date(timeIntervalSince1970: 109)).allSatisfy { $0.bytesIn == 0 })
    }

    @Test("the buckets' alignment depends on the epoch, not on when the window was made or first fed")
    func windowAlignment() {
        var early = ThroughputWindow(bucketDuration: 5, windowDuration: 30)
        var late = ThroughputWindow(bucketDuration: 5, windowDuration: 30)
        early.add(date: Date(timeIntervalSince1970: 1_001), direction: .inbound, length: 1)
        late.add(date: Date(timeIntervalSince1970: 1_003.7), direction: .inbound, length: 1)
        let now = Date(timeIntervalSince1970: 1_004)
        #expect(early.samples(asOf: now).map(\.start) == late.samples(asOf: now).map(\.start))
        #expect(early.samples(asOf: now).last?.start == Date(timeIntervalSince1970: 1_000))
        #expect(early.samples(asOf: now).map(\.bytesIn) == late.samples(asOf: now).map(\.bytesIn))
    }

    @Test("a record behind the newest by a whole window is counted late and not added; one out of order inside it lands in its bucket")
    func lateRecords() {
        var window = ThroughputWindow(bucketDuration: 1, windowDuration: 5)
        window.add(date: Date(timeIntervalSince1970: 200), direction: .inbound, length: 10)
        window.add(date: Date(timeIntervalSince1970: 196.5), direction: .inbound, length: 3)   // inside: 196..200
        window.add(date: Date(timeIntervalSince1970: 195.9), direction: .outbound, length: 99) // behind by 5 buckets
        #expect(window.lateRecords == 1)
        let samples = window.samples(asOf: Date(timeIntervalSince1970: 200))
        #expect(samples.map(\.bytesIn) == [3, 0, 0, 0, 10])
        #expect(samples.map(\.bytesOut).reduce(0, +) == 0)
        window.reset()
        #expect(window.lateRecords == 0)
        #expect(window.samples(asOf: Date(timeIntervalSince1970: 200)).allSatisfy { $0.bytesIn == 0 })
    }

    @Test("the busiest hosts are summed over the window, most bytes first, ties by address, and hosts past the per-bucket cap are others")
    func talkers() {
        var talkers = TalkerWindow(bucketDuration: 1, windowDuration: 10, hostsPerBucket: 2)
        let a = IPAddress(parsing: "198.19.0.1")!, b = IPAddress(parsing: "198.19.0.2")!, c = IPAddress(parsing: "198.19.0.3")!
        let key = FlowKey(proto: .tcp, source: IPEndpoint(address: Self.local4, port: 1), destination: IPEndpoint(address: a, port: 2))
        talkers.add(date: Date(timeIntervalSince1970: 50), remote: a, flow: key, direction: .inbound, length: 100)
        talkers.add(date: Date(timeIntervalSince1970: 51), remote: a, flow: key, direction: .outbound, length: 50)
        talkers.add(date: Date(timeIntervalSince1970: 51), remote: b, flow: key, direction: .inbound, length: 150)
        talkers.add(date: Date(timeIntervalSince1970: 51), remote: c, flow: key, direction: .inbound, length: 999)
        let top = talkers.top(asOf: Date(timeIntervalSince1970: 55), limit: 5)
        #expect(top.map(\.remote) == [a, b])
        #expect(top[0].bytesIn == 100 && top[0].bytesOut == 50)
        let rolled = talkers.top(asOf: Date(timeIntervalSince1970: 60), limit: 5)   // second 50 has left the window
        #expect(rolled.map(\.remote) == [b, a] && rolled[1].bytesIn == 0 && rolled[1].bytesOut == 50)
        #expect(talkers.top(asOf: Date(timeIntervalSince1970: 70), limit: 5).isEmpty)
    }

    @Test("recent packets keep the newest, in arrival order, at a fixed capacity")
    func recentCapacity() throws {
        var recent = RecentPackets(capacity: 3)
        let anchor = MonotonicAnchor(uptimeNanoseconds: 0, wallClockNanosecondsSince1970: 0)
        for sequence in 0..<7 as Range<UInt64> {
            recent.append(try LivePacket(Self.packed(from: IPEndpoint(address: Self.local4, port: 1),
                                                     to: IPEndpoint(address: Self.remote4, port: 2), direction: .outbound),
                                         sequence: sequence, anchor: anchor, localAddresses: []))
        }
        #expect(recent.packets.map(\.id) == [4, 5, 6])
    }

    @Test("connections are counted exactly up to the cap, then said to have reached it")
    func connectionCap() {
        var tally = ConnectionTally(cap: 2)
        for port in [1, 2, 2, 3] as [UInt16] {
            tally.note(FlowKey(proto: .udp, source: IPEndpoint(address: Self.local4, port: port), destination: IPEndpoint(address: Self.remote4, port: 53)))
        }
        #expect(tally.count == 2 && tally.reachedCap)
    }

    @Test("the policy's defaults are the seed's bounds")
    func policyDefaults() {
        let policy = LiveFeedPolicy.default
        #expect(policy.recordsPerDrain == 512 && policy.maxDrainsPerBurst == 8 && policy.recentPacketCapacity == 500)
        #expect(policy.idlePollInterval == .seconds(1) && policy.bucketDuration == 1 && policy.windowDuration == 60)
    }
}
