import Fixtures
import Foundation
import Testing
import Shared
@testable import PacketTunnel

/// Real datagrams for the flow table, emitted and parsed, between the device and remotes in
/// 198.18.0.0/15.
enum FlowFixture {
    struct Packet {
        let parsed: ParsedPacket
        let direction: Direction
        var length: UInt32 { UInt32(parsed.ip.totalLength) }
        var key: FlowKey { parsed.flowKey }
    }

    /// One flow of each kind the table tells apart, all to the same remote host.
    static let https = tcp(.outbound, to: remote(port: 443))
    static let http = tcp(.outbound, to: remote(port: 80))
    static let quic = udp(.outbound, to: remote(port: 443))
    static let dns = udp(.outbound, to: remote(port: 53))
    static let echo = ping(.outbound)

    static func remote(_ host: UInt32 = 1, port: UInt16) -> IPEndpoint {
        IPEndpoint(address: IPAddress(ipv4: 0xC612_0000 | host), port: port)
    }

    static func device(port: UInt16 = 40_000) -> IPEndpoint {
        IPEndpoint(address: TunnelAddressing.ipv4Address, port: port)
    }

    static func tcp(_ direction: Direction, to remote: IPEndpoint, from device: IPEndpoint = device(),
                    flags: TCPFlags = [.ack], payload: Int = 0, sequence: UInt32 = 1) -> Packet {
        let (source, destination) = direction == .outbound ? (device, remote) : (remote, device)
        let bytes = try! PacketEmitter.tcp(source: source, destination: destination, sequence: sequence, acknowledgment: 1,
                                           flags: flags, windowSize: 65_535, payload: Data(count: payload))
        return Packet(parsed: try! PacketParser.parse(bytes), direction: direction)
    }

    static func udp(_ direction: Direction, to remote: IPEndpoint, from device: IPEndpoint = device(),
                    payload: Int = 0) -> Packet {
        let (source, destination) = direction == .outbound ? (device, remote) : (remote, device)
        let bytes = try! PacketEmitter.udp(source: source, destination: destination, payload: Data(count: payload))
        return Packet(parsed: try! PacketParser.parse(bytes), direction: direction)
    }

    static func ping(_ direction: Direction, host: UInt32 = 1) -> Packet {
        let remote = remote(host, port: 0).address
        let bytes = SyntheticTraffic.icmpEcho(
            source: direction == .outbound ? TunnelAddressing.ipv4Address : remote,
            destination: direction == .outbound ? remote : TunnelAddressing.ipv4Address,
            reply: direction == .inbound, identifier: 7, sequence: 1, payload: Data(count: 8))
        return Packet(parsed: try! PacketParser.parse(bytes), direction: direction)
    }
}

func seconds(_ count: UInt64) -> UInt64 { count * 1_000_000_000 }

extension FlowTable {
    /// Counts a packet the table is expected to admit.
    @discardableResult
    mutating func observe(_ packet: FlowFixture.Packet, now: UInt64, resolvedName: ResolvedFlowName? = nil,
                          quic: QUICVersionReading? = nil) -> LiveFlow {
        observeOrRefuse(packet, now: now, resolvedName: resolvedName, quic: quic)!
    }

    /// Counts a packet; nil when the table refused its flow.
    @discardableResult
    mutating func observeOrRefuse(_ packet: FlowFixture.Packet, now: UInt64, resolvedName: ResolvedFlowName? = nil,
                                  quic: QUICVersionReading? = nil) -> LiveFlow? {
        observe(packet.parsed, direction: packet.direction, length: packet.length, now: now,
                resolvedName: resolvedName, quic: quic)
    }
}

@Suite struct FlowTableTests {
    let web = FlowFixture.remote(port: 443)

    @Test func aNewFlowIsSeenFirstAndLastNowWithOnePacketInItsDirection() {
        var table = FlowTable()
        let packet = FlowFixture.tcp(.outbound, to: web, flags: [.syn])
        let flow = table.observe(packet, now: 5_000)

        #expect(flow.key == packet.key)
        #expect(flow.record.id == 0)
        #expect(flow.record.firstSeen == 5_000 && flow.record.lastSeen == 5_000 && flow.lastActivity == 5_000)
        #expect(flow.record.packetCount == 1 && flow.packetsOut == 1 && flow.packetsIn == 0)
        #expect(flow.record.bytesOut == UInt64(packet.length) && flow.record.bytesIn == 0)
        #expect(table.count == 1)
    }

    @Test func bothDirectionsAddUpInOneFlowEachOnItsOwnSide() {
        var table = FlowTable()
        let out = FlowFixture.tcp(.outbound, to: web, payload: 100)
        let back = FlowFixture.tcp(.inbound, to: web, payload: 1_000)
        table.observe(out, now: 1)
        table.observe(back, now: 2)
        table.observe(back, now: 3)
        let flow = table.observe(out, now: 4)

        #expect(out.key == back.key && table.count == 1)
        #expect(flow.record.bytesOut == 2 * UInt64(out.length) && flow.record.bytesIn == 2 * UInt64(back.length))
        #expect(flow.packetsOut == 2 && flow.packetsIn == 2 && flow.record.packetCount == 4)
        #expect(flow.record.firstSeen == 1 && flow.record.lastSeen == 4)
    }

    @Test func countersWrapInsteadOfTrapping() {
        var record = FlowRecord(key: FlowFixture.udp(.outbound, to: web).key, firstSeen: 0, tlsStatus: .plaintext)
        record.bytesIn = .max - 9
        var entry = FlowTable.Entry(record: record)
        entry.count(direction: .inbound, length: 20, now: 1)
        #expect(entry.record.bytesIn == 10)
    }

    @Test(arguments: [
        (FlowFixture.https, TLSInspectionStatus.encrypted),
        (FlowFixture.tcp(.inbound, to: FlowFixture.remote(port: 50_000), from: FlowFixture.device(port: 443)), .encrypted),
        (FlowFixture.http, .plaintext),
        (FlowFixture.tcp(.outbound, to: FlowFixture.remote(port: 8443)), .plaintext),
        (FlowFixture.quic, .plaintext),
        (FlowFixture.echo, .plaintext),
    ])
    func aFlowStartsEncryptedOnlyWhenItIsTCPWithPort443OnEitherSide(packet: FlowFixture.Packet,
                                                                    expected: TLSInspectionStatus) {
        var table = FlowTable()
        #expect(table.observe(packet, now: 0).record.tlsStatus == expected)
    }

    @Test func theResolvedNameIsTakenOnlyWhenTheFlowIsCreated() {
        var table = FlowTable()
        let packet = FlowFixture.tcp(.outbound, to: web)
        table.observe(packet, now: 0, resolvedName: ResolvedFlowName(name: "example.org"))
        let flow = table.observe(packet, now: 1, resolvedName: ResolvedFlowName(name: "other.example"))
        #expect(flow.record.resolvedName?.name == "example.org")

        var unnamed = FlowTable()
        unnamed.observe(packet, now: 0)
        #expect(unnamed.observe(packet, now: 1, resolvedName: ResolvedFlowName(name: "late.example")).record.resolvedName == nil)
    }

    @Test func readingARecordMovesNeitherItsRecencyNorItsLastSeen() {
        var table = FlowTable(config: .init(maxFlows: 2, whenFull: .endLeastRecent))
        let first = FlowFixture.tcp(.outbound, to: FlowFixture.remote(1, port: 443))
        let second = FlowFixture.tcp(.outbound, to: FlowFixture.remote(2, port: 443))
        table.observe(first, now: 1)
        table.observe(second, now: 2)

        #expect(table.record(for: first.key)?.lastSeen == 1)
        table.observe(FlowFixture.tcp(.outbound, to: FlowFixture.remote(3, port: 443)), now: 3)
        #expect(table.record(for: first.key) == nil)
        #expect(table.drainClosed().map(\.record.key) == [first.key])
    }

    @Test func activeRecordsListEveryLiveFlowOnce() {
        var table = FlowTable()
        let packets = [FlowFixture.https, FlowFixture.dns, FlowFixture.quic, FlowFixture.echo]
        for (index, packet) in packets.enumerated() { table.observe(packet, now: UInt64(index)) }
        #expect(Set(table.activeRecords().map(\.key)) == Set(packets.map(\.key)))
        #expect(table.activeRecords().count == 4)
        #expect(table.record(for: FlowFixture.tcp(.outbound, to: FlowFixture.remote(9, port: 443)).key) == nil)
    }
}
