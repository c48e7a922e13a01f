import Foundation
import Shared
import TestSupport

/// Flows and packets for the history reader's tests, written through the real store on a fixed
/// anchor so every instant is known.
enum HistoryFixtures {
    /// Monotonic 1 000 s ↔ 2026-11-30 02:00:00 UTC, a whole hour (so bars of any rung start there).
    static let wallStart: Int64 = 1_796_004_000
    static let anchor = MonotonicAnchor(uptimeNanoseconds: 1_000_000_000_000,
                                        wallClockNanosecondsSince1970: wallStart * 1_000_000_000)

    /// The monotonic instant `seconds` after the anchor.
    static func uptime(_ seconds: Double) -> UInt64 {
        UInt64(Int64(anchor.uptimeNanoseconds) + Int64((seconds * 1e9).rounded()))
    }

    /// The date the store gives the instant `seconds` after the anchor.
    static func date(_ seconds: Double) -> Date {
        Date(timeIntervalSince1970: TimeInterval(wallStart) + seconds)
    }

    /// The device's `number`th connection: TCP (or UDP) from the tunnel's address to 198.18.x.y.
    static func key(_ number: Int, proto: IPProtocolNumber = .tcp, port: UInt16 = 443) -> FlowKey {
        let device = IPEndpoint(address: TunnelAddressing.ipv4Address, port: UInt16(20_000 + number % 40_000))
        let server = IPEndpoint(address: IPAddress(ipv4: 0xC612_0000 | UInt32(number % 65_536)), port: port)
        return FlowKey(proto: proto, source: device, destination: server)
    }

    static func record(_ key: FlowKey, first: Double, last: Double, status: TLSInspectionStatus = .encrypted,
                       sni: String? = nil, dns: ResolvedFlowName? = nil, bytes: (out: UInt64, in: UInt64) = (0, 0),
                       packets: UInt64 = 0) -> FlowRecord {
        var record = FlowRecord(key: key, firstSeen: uptime(first), tlsStatus: status)
        record.lastSeen = uptime(last)
        record.sni = sni
        record.resolvedName = dns
        record.bytesOut = bytes.out
        record.bytesIn = bytes.in
        record.packetCount = packets
        return record
    }

    static func packet(_ key: FlowKey, at seconds: Double, direction: Direction = .outbound,
                       length: UInt32 = 60) -> PacketMeta {
        PacketMeta(timestamp: uptime(seconds), flowKey: key, direction: direction, length: length, tcpFlags: [.ack],
                   capture: nil)
    }

    /// A store over a fresh history in `directory` (its data directory).
    static func store(in directory: TemporaryDirectory) throws -> FlowStore {
        try FlowStore(dataDirectory: directory.url, anchor: anchor, origin: "test")
    }

    /// `count` connections, connection n last seen at n seconds (so newest = highest n), named
    /// `host-n.example` by SNI, every seventh plain UDP.
    static func fill(_ store: FlowStore, count: Int, packetsEach: Int = 0) async throws {
        var flows: [FlowRecord] = []
        var packets: [PacketMeta] = []
        for number in 0..<count {
            let proto: IPProtocolNumber = number % 7 == 0 ? .udp : .tcp
            let key = key(number, proto: proto)
            flows.append(record(key, first: Double(number) - 0.5, last: Double(number),
                                status: proto == .udp ? .plaintext : .encrypted,
                                sni: proto == .udp ? nil : "host-\(number).example", packets: UInt64(packetsEach)))
            packets += (0..<packetsEach).map { packet(key, at: Double(number) - 0.5 + Double($0) * 0.5 / Double(max(1, packetsEach))) }
            if flows.count == 500 {
                try await store.write(FlowStoreBatch(flows: flows, packets: packets))
                flows = []
                packets = []
            }
        }
        try await store.write(FlowStoreBatch(flows: flows, packets: packets))
    }
}
