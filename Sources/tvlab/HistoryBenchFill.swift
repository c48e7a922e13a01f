import Fixtures
import Foundation
import Shared

/// The history `tvlab bench history` times: `flows` connections and `packets` packets spread over
/// the week before now, written through the real store's write path (`FlowStore.write`, batches of
/// `flowsPerBatch` flows with their packets, one transaction each), so the kept activity counts
/// are maintained exactly as the tunnel maintains them.
///
/// Connection i begins at i/flows of the week and lasts up to a minute; its packets are spread
/// over its life. One connection in `rareEvery` is named `rare-…` (what the chained page looks
/// for); the others share 50 000 names. One connection, the inspector's, has
/// `inspectedPackets` packets.
struct HistoryBenchFill {
    let flows: Int
    let packets: Int
    static let week: Double = 7 * 86_400
    static let flowsPerBatch = 500
    static let rareEvery = 100_000
    static let inspectedPackets = 10_000
    static let rarePrefix = "rare-"

    /// What was written.
    struct Written {
        let inspectedFlowID: Int64
        let seconds: Double
    }

    /// The connection whose packets the inspector reads: in the middle of the week.
    var inspectedIndex: Int { flows / 2 }

    func key(_ index: Int) -> FlowKey {
        let device = IPEndpoint(address: TunnelAddressing.ipv4Address, port: UInt16(1_024 + index % 60_000))
        let server = IPEndpoint(address: IPAddress(ipv4: 0xC612_0000 | UInt32(index / 60_000) << 8 | UInt32(index % 251)),
                                port: index % 5 == 0 ? 80 : 443)
        return FlowKey(proto: index % 9 == 0 ? .udp : .tcp, source: device, destination: server)
    }

    func write(into directory: URL, progress: (String) -> Void) async throws -> (store: FlowStore, written: Written) {
        let now = MonotonicAnchor.now()
        // Uptime 1 000 s is the week's start.
        let anchor = MonotonicAnchor(uptimeNanoseconds: 1_000_000_000_000,
                                     wallClockNanosecondsSince1970: now.wallClockNanosecondsSince1970 - Int64(Self.week * 1e9))
        let store = try FlowStore(dataDirectory: directory, anchor: anchor, origin: "tvlab bench history")
        let clock = Stopwatch()
        var random = SeededRandom(seed: 13)
        let ordinary = max(0, packets - Self.inspectedPackets)
        let perFlow = Double(ordinary) / Double(max(1, flows))
        var packetsLeft = ordinary
        var inspectedID: Int64 = 0
        var batch = FlowStoreBatch()
        var inspectedSlot: Int?
        for index in 0..<flows {
            let start = anchor.uptimeNanoseconds + UInt64(Self.week * 1e9 * Double(index) / Double(flows))
            let duration = UInt64(random.next() % 60_000_000_000)
            var count = index == inspectedIndex ? Self.inspectedPackets
                : min(packetsLeft, Int(perFlow * Double(index + 1)) - Int(perFlow * Double(index)))
            if index == flows - 1, index != inspectedIndex { count = packetsLeft }
            if index != inspectedIndex { packetsLeft -= count }
            let key = key(index)
            var record = FlowRecord(key: key, firstSeen: start, tlsStatus: key.proto == .udp ? .plaintext : .encrypted)
            record.lastSeen = start + duration
            record.packetCount = UInt64(count)
            record.bytesOut = UInt64(count) * 300
            record.bytesIn = UInt64(count) * 900
            if key.proto == .tcp {
                record.sni = index % Self.rareEvery == 7 ? "\(Self.rarePrefix)\(index).example" : "site-\(index % 50_000).example"
            }
            batch.flows.append(record)
            if index == inspectedIndex { inspectedSlot = batch.flows.count - 1 }
            for packet in 0..<count {
                let offset = count > 1 ? duration * UInt64(packet) / UInt64(count - 1) : 0
                batch.packets.append(PacketMeta(timestamp: start + offset, flowKey: key,
                                                direction: packet % 2 == 0 ? .outbound : .inbound,
                                                length: 1_200, tcpFlags: [.ack], capture: nil))
            }
            if batch.flows.count == Self.flowsPerBatch || index == flows - 1 {
                let outcome = try await store.write(batch)
                if let slot = inspectedSlot { inspectedID = outcome.flowIDs[slot] }
                inspectedSlot = nil
                batch = FlowStoreBatch()
                if (index + 1) % 100_000 == 0 {
                    progress(String(format: "  %d flows, %d packets written (%.0f s)", index + 1,
                                    ordinary - packetsLeft + (index >= inspectedIndex ? Self.inspectedPackets : 0), clock.elapsedSeconds))
                }
            }
        }
        return (store, Written(inspectedFlowID: inspectedID, seconds: clock.elapsedSeconds))
    }
}
