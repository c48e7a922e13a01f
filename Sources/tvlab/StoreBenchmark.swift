import Fixtures
import Foundation
import Shared

/// What `measureStoreWrites` measured.
struct StoreBenchmarkFigures: Sendable {
    let packets: Int
    /// Time spent inside `FlowStore.write`, summed over the batches.
    let seconds: Double
    let packetsPerSecond: Double
    let batches: Int
}

/// Writes `packets` synthetic packets of `flows` flows through a real `FlowStore` in `directory`,
/// `batchSize` packets a batch, as the pipeline flushes: one transaction per batch carrying the
/// records of the flows the batch touched. Only the writes are timed; making the traffic is not.
///
/// Traffic comes in bursts, as a tunnel sees it: a flow sends 1 to 2 × `meanBurst` packets in a
/// row, then another flow, drawn at random, takes over (a batch of 512 touches some 30 flows).
/// `meanBurst: 1` is the worst case, a new flow every packet. Every packet has a capture location.
func measureStoreWrites(packets: Int, batchSize: Int, in directory: URL,
                        flows flowCount: Int = 1_000, meanBurst: Int = 16) async throws -> StoreBenchmarkFigures {
    precondition(packets >= 0 && batchSize > 0 && flowCount > 0 && meanBurst > 0)
    let store = try FlowStore(dataDirectory: directory)
    let device = IPEndpoint(address: IPAddress(ipv4: 0x0A07_0002), port: 0)
    var records = (0..<flowCount).map { index in
        let server = IPEndpoint(address: IPAddress(ipv4: 0xC612_0000 | UInt32(index % 65_536)), port: 443)
        let local = IPEndpoint(address: device.address, port: UInt16(32_768 + index % 28_000))
        return FlowRecord(key: FlowKey(proto: index % 4 == 3 ? .udp : .tcp, source: local, destination: server),
                          firstSeen: MonotonicAnchor.uptimeNow(), tlsStatus: .encrypted)
    }
    var random = SeededRandom(seed: 7)
    var clock = MonotonicAnchor.uptimeNow()
    var captureOffset: UInt64 = 24
    var flow = 0, burstLeft = 0
    var written = 0, batches = 0, nanoseconds: UInt64 = 0

    while written < packets {
        let count = min(batchSize, packets - written)
        var batch = FlowStoreBatch()
        batch.packets.reserveCapacity(count)
        var touched: Set<Int> = []
        for _ in 0..<count {
            if burstLeft == 0 {
                flow = Int(random.next() % UInt64(flowCount))
                burstLeft = 1 + Int(random.next() % UInt64(2 * meanBurst))
            }
            burstLeft -= 1
            clock += 1_000 + random.next() % 2_000
            let outbound = random.next() & 1 == 0
            let length = UInt32(40 + random.next() % 1_460)
            batch.packets.append(PacketMeta(timestamp: clock, flowKey: records[flow].key,
                                            direction: outbound ? .outbound : .inbound, length: length,
                                            tcpFlags: records[flow].key.proto == .tcp ? [.ack] : [],
                                            capture: CaptureLocation(fileSequence: 1, recordOffset: captureOffset)))
            captureOffset += 16 + UInt64(length)
            records[flow].lastSeen = clock
            records[flow].packetCount += 1
            if outbound { records[flow].bytesOut += UInt64(length) } else { records[flow].bytesIn += UInt64(length) }
            touched.insert(flow)
        }
        batch.flows = touched.sorted().map { records[$0] }

        let start = Stopwatch.now()
        let outcome = try await store.write(batch)
        nanoseconds += Stopwatch.now() - start
        guard outcome.orphanedPackets == 0 else {
            throw Failure("bench store: \(outcome.orphanedPackets) packets found no flow")
        }
        written += count
        batches += 1
    }
    await store.close()
    let seconds = Double(nanoseconds) / 1e9
    return StoreBenchmarkFigures(packets: written, seconds: seconds,
                                 packetsPerSecond: seconds > 0 ? Double(written) / seconds : .infinity, batches: batches)
}
