import App
import Fixtures
import Foundation
import Shared
import TestSupport

/// A data directory holding a real history (`FlowStore`) and real captures (`PcapFileWriter`),
/// the way the tunnel leaves them: every captured packet's row carries the location the writer
/// returned for its bytes.
final class InspectorHistory: @unchecked Sendable {
    static let anchor = MonotonicAnchor(uptimeNanoseconds: 1_000_000_000_000,
                                        wallClockNanosecondsSince1970: 1_796_005_130_000_000_000)
    static let device = IPEndpoint(address: TunnelAddressing.ipv4Address, port: 40_000)
    static let server = IPEndpoint(address: IPAddress(parsing: "198.18.0.1")!, port: 443)
    static let resolver = IPEndpoint(address: IPAddress(parsing: "198.18.0.53")!, port: 53)

    let temporary = TemporaryDirectory("tv-inspector")
    var dataDirectory: URL { temporary.url.appendingPathComponent("data") }
    var captures: URL { DataDirectoryLayout.captures(in: dataDirectory) }
    let store: FlowStore
    let writer: PcapFileWriter
    /// The bytes written for each packet, by flow id, in time order.
    private(set) var written: [Int64: [Data]] = [:]

    init(snaplen: UInt32 = CaptureDetail.fullPayload.snaplen) throws {
        store = try FlowStore(dataDirectory: temporary.url.appendingPathComponent("data"), anchor: Self.anchor)
        writer = try PcapFileWriter(config: .init(directory: DataDirectoryLayout.captures(in: temporary.url.appendingPathComponent("data")),
                                                  snaplen: snaplen))
    }

    /// One packet of a flow: its bytes, which way it went, when (ms after the flow's start) and
    /// whether its bytes go to the capture.
    struct Packet {
        let bytes: Data
        let direction: Direction
        let milliseconds: UInt64
        var captured = true
    }

    /// Records a flow and its packets; returns its id.
    @discardableResult
    func record(_ key: FlowKey, _ packets: [Packet], sni: String? = nil, status: TLSInspectionStatus = .encrypted,
                startSeconds: UInt64 = 1, facts: (inout FlowRecord) -> Void = { _ in }) async throws -> Int64 {
        let start = Self.anchor.uptimeNanoseconds + startSeconds * 1_000_000_000
        var record = FlowRecord(key: key, firstSeen: start, tlsStatus: status)
        record.lastSeen = start + (packets.last?.milliseconds ?? 0) * 1_000_000
        record.sni = sni
        for packet in packets {
            if packet.direction == .outbound { record.bytesOut += UInt64(packet.bytes.count) } else { record.bytesIn += UInt64(packet.bytes.count) }
        }
        record.packetCount = UInt64(packets.count)
        facts(&record)
        let id = try await store.upsertFlow(record)
        var metas: [PacketMeta] = []
        for packet in packets {
            let uptime = start + packet.milliseconds * 1_000_000
            let parsed = try PacketParser.parse(packet.bytes)
            var location: CaptureLocation?
            if packet.captured {
                location = try writer.write(packet: packet.bytes, originalLength: packet.bytes.count,
                                            timestamp: Self.anchor.nanosecondsSince1970(forUptime: uptime))
            }
            metas.append(PacketMeta(timestamp: uptime, flowKey: key, direction: packet.direction,
                                    length: UInt32(packet.bytes.count), tcpFlags: parsed.tcp?.flags ?? [], capture: location))
            written[id, default: []].append(packet.bytes)
        }
        try writer.flush()
        try await store.appendPackets(metas, flowID: id)
        return id
    }

    static var tcpKey: FlowKey { FlowKey(proto: .tcp, source: device, destination: server) }

    /// A TCP connection's life: opened, accepted, confirmed, data both ways, finished, cut off.
    static func tcpConversation(payload: Int = 100) throws -> [Packet] {
        func segment(_ flags: TCPFlags, out: Bool, data: Int = 0, seq: UInt32, ack: UInt32) throws -> Data {
            try PacketEmitter.tcp(source: out ? device : server, destination: out ? server : device, sequence: seq,
                                  acknowledgment: ack, flags: flags, windowSize: 64_240,
                                  options: flags.contains(.syn) ? TCPOptions(maximumSegmentSize: 1460, windowScale: 7) : TCPOptions(),
                                  payload: Data((0..<data).map { UInt8(truncatingIfNeeded: $0) }))
        }
        return [
            Packet(bytes: try segment(.syn, out: true, seq: 1000, ack: 0), direction: .outbound, milliseconds: 0),
            Packet(bytes: try segment([.syn, .ack], out: false, seq: 5000, ack: 1001), direction: .inbound, milliseconds: 4),
            Packet(bytes: try segment(.ack, out: true, seq: 1001, ack: 5001), direction: .outbound, milliseconds: 5),
            Packet(bytes: try segment([.psh, .ack], out: true, data: payload, seq: 1001, ack: 5001), direction: .outbound, milliseconds: 6),
            Packet(bytes: try segment([.psh, .ack], out: false, data: 2 * payload, seq: 5001, ack: 1001 + UInt32(payload)),
                   direction: .inbound, milliseconds: 40),
            Packet(bytes: try segment([.fin, .ack], out: true, seq: 1001 + UInt32(payload), ack: 5001 + 2 * UInt32(payload)),
                   direction: .outbound, milliseconds: 1250),
            Packet(bytes: try segment([.rst, .ack], out: false, seq: 5001 + 2 * UInt32(payload), ack: 1002 + UInt32(payload)),
                   direction: .inbound, milliseconds: 1251),
        ]
    }

    /// A DNS exchange on port 53: `messages` alternate query (out) and response (in).
    static func dns(_ messages: [DNSMessage]) throws -> [Packet] {
        let client = IPEndpoint(address: device.address, port: 53_000)
        return try messages.enumerated().map { index, message in
            let out = !message.header.isResponse
            let bytes = try PacketEmitter.udp(source: out ? client : resolver, destination: out ? resolver : client,
                                              payload: Data(DNSMessageFixture.encode(message)))
            return Packet(bytes: bytes, direction: out ? .outbound : .inbound, milliseconds: UInt64(index * 3))
        }
    }

    static var dnsKey: FlowKey {
        FlowKey(proto: .udp, source: IPEndpoint(address: device.address, port: 53_000), destination: resolver)
    }

    func close() async throws {
        try writer.flush()
        try writer.close()
        await store.close()
    }
}
