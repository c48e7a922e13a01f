import Foundation
import Testing
import Shared
@testable import PacketTunnel

/// In-memory sinks: what the pipeline published, captured and persisted, and knobs to make each fail.
final class LiveFeedDouble: LiveFeedSink {
    var published: [PacketMeta] = []
    /// Records taken before the "ring" is full.
    var room = Int.max
    var drops = 0
    var notifications = 0

    func publish(_ meta: PacketMeta) -> Bool {
        guard published.count < room else { drops += 1; return false }
        published.append(meta)
        return true
    }

    func notifyConsumer() { notifications += 1 }
}

final class CaptureDouble: CaptureSink {
    var records: [(bytes: [UInt8], timestamp: Int64)] = []
    var failure: PcapError?
    var writeOuts = 0
    var flushes = 0
    var snaplen: UInt32 = 262_144

    func write(bytes: UnsafeRawBufferPointer, originalLength: Int, timestamp: Int64) throws(PcapError) -> CaptureLocation {
        if let failure { throw failure }
        records.append((Array(bytes), timestamp))
        return CaptureLocation(fileSequence: 9, recordOffset: UInt64(24 + 1_000 * records.count))
    }

    func writeOut() throws(PcapError) { writeOuts += 1 }
    func flush() throws(PcapError) { flushes += 1 }
    /// Records a real writer would have handed the kernel; set lower to model records still
    /// buffered when the disk filled.
    var recordsOnDisk: UInt64?
    var recordsWritten: UInt64 { recordsOnDisk ?? UInt64(records.count) }
}

final class StoreDouble: FlowPersisting {
    var batches: [FlowStoreBatch] = []
    var accepting = true
    var outcomes = PersistenceOutcomes()

    func persist(_ batch: FlowStoreBatch) -> Bool {
        guard accepting else { return false }
        batches.append(batch)
        return true
    }

    nonisolated(nonsending) func drain() async {}
}

/// A pipeline over the doubles, and datagrams between the tunnel's addresses and remotes.
struct PipelineBench {
    static let anchor = MonotonicAnchor(uptimeNanoseconds: 1_000, wallClockNanosecondsSince1970: 1_796_005_130_000_000_000)
    static let remote4 = IPEndpoint(address: IPAddress(ipv4: 0xC612_0001), port: 443)
    static let remote6 = IPEndpoint(address: IPAddress(ipv6High: 0xFD00_0000_0000_0018, low: 1), port: 443)
    static let device4 = IPEndpoint(address: TunnelAddressing.ipv4Address, port: 40_000)
    static let device6 = IPEndpoint(address: TunnelAddressing.ipv6Address, port: 40_000)

    let feed = LiveFeedDouble()
    let capture = CaptureDouble()
    let store = StoreDouble()
    let pipeline: PacketPipeline

    init(localIPv6: IPAddress? = TunnelAddressing.ipv6Address, captureEnabled: Bool = true, batchSize: Int = 512,
         flowTable: FlowTable = FlowTable()) {
        pipeline = PacketPipeline(
            flowTable: flowTable, direction: TunnelAddressDirection(localIPv6: localIPv6), liveFeed: feed,
            capture: capture, store: store,
            config: .init(captureEnabled: captureEnabled, batchSize: batchSize, anchor: Self.anchor))
    }

    static func tcp(_ direction: Direction, v6: Bool = false, remote: IPEndpoint? = nil, flags: TCPFlags = [.ack],
                    payload: Int = 0) -> Data {
        let device = v6 ? device6 : device4
        let remote = remote ?? (v6 ? remote6 : remote4)
        let (source, destination) = direction == .outbound ? (device, remote) : (remote, device)
        return try! PacketEmitter.tcp(source: source, destination: destination, sequence: 1, acknowledgment: 1,
                                      flags: flags, windowSize: 65_535, payload: Data(count: payload))
    }

    static func udp(_ direction: Direction, port: UInt16 = 5_000) -> Data {
        let remote = IPEndpoint(address: remote4.address, port: port)
        let (source, destination) = direction == .outbound ? (device4, remote) : (remote, device4)
        return try! PacketEmitter.udp(source: source, destination: destination, payload: Data(count: 20))
    }
}

extension PacketPipeline {
    @discardableResult
    func handle(_ packet: Data, now: UInt64) -> PacketDisposition {
        packet.withUnsafeBytes { handle(packet: $0, now: now) }
    }

    @discardableResult
    func record(reinjected packet: Data, now: UInt64) -> PacketDisposition {
        packet.withUnsafeBytes { record(reinjected: $0, now: now) }
    }
}

@Suite struct PacketPipelineTests {
    @Test func directionComesFromTheLocalAddressInBothFamilies() {
        let bench = PipelineBench()
        let packets = [PipelineBench.tcp(.outbound), PipelineBench.tcp(.inbound),
                       PipelineBench.tcp(.outbound, v6: true), PipelineBench.tcp(.inbound, v6: true)]
        for (index, packet) in packets.enumerated() {
            let disposition = bench.pipeline.handle(packet, now: UInt64(index))
            #expect(disposition.packetToRelay == (try! PacketParser.parse(packet)))
        }
        #expect(bench.feed.published.map(\.direction) == [.outbound, .inbound, .outbound, .inbound])
        #expect(bench.feed.published.map(\.length) == packets.map { UInt32($0.count) })
        let stats = bench.pipeline.stats
        #expect(stats.packetsHandled == 4 && stats.bytesHandled == UInt64(packets.map(\.count).reduce(0, +)))
        #expect(stats.flowsOpened == 2 && stats.packetsPublished == 4)
    }

    @Test func ipv6WithoutALocalAddressIsDroppedAndCounted() {
        let bench = PipelineBench(localIPv6: nil)
        #expect(bench.pipeline.handle(PipelineBench.tcp(.outbound, v6: true), now: 1) == .dropped(.noLocalAddress))
        #expect(bench.pipeline.handle(PipelineBench.tcp(.outbound), now: 2).packetToRelay != nil)
        #expect(bench.pipeline.stats.packetsDroppedNoLocalAddress == 1)
        #expect(bench.feed.published.count == 1 && bench.capture.records.count == 1)
    }

    @Test func aPacketWithNeitherAddressLocalIsDroppedRatherThanGuessed() {
        let bench = PipelineBench()
        let stray = try! PacketEmitter.udp(source: PipelineBench.remote4, destination: IPEndpoint(
            address: IPAddress(ipv4: 0xC612_0009), port: 53), payload: Data())
        #expect(bench.pipeline.handle(stray, now: 1) == .dropped(.noLocalAddress))
        #expect(bench.pipeline.flowTable.count == 0 && bench.feed.published.isEmpty)
    }

    @Test("GRE and ESP between the same two hosts are two flows, each keeping its protocol number")
    func unnamedProtocolsBetweenTheSameHostsAreTwoFlows() {
        let bench = PipelineBench()
        var gre = PipelineBench.udp(.outbound)
        gre[9] = 47
        var esp = PipelineBench.udp(.outbound)
        esp[9] = 50
        for (index, datagram) in [gre, esp, gre].enumerated() {
            #expect(bench.pipeline.handle(datagram, now: UInt64(index + 1)).packetToRelay != nil)
        }
        #expect(bench.pipeline.flowTable.count == 2 && bench.pipeline.stats.flowsOpened == 2)
        #expect(Set(bench.feed.published.map(\.flowKey.proto.rawValue)) == [47, 50])
        #expect(bench.feed.published.map(\.flowKey.proto.rawValue) == [47, 50, 47])
    }

    @Test func anUnparseableDatagramIsDroppedAndCounted() {
        let bench = PipelineBench()
        let disposition = bench.pipeline.handle(Data([0x00, 1, 2, 3]), now: 1)
        guard case .dropped(.parseFailed) = disposition else { Issue.record("\(disposition)"); return }
        #expect(bench.pipeline.stats.packetsDroppedUnparseable == 1 && bench.pipeline.stats.packetsHandled == 1)
        #expect(bench.feed.published.isEmpty && bench.capture.records.isEmpty)
    }

    @Test func captureComesBeforePublishingAndTheMetaCarriesItsLocation() {
        let bench = PipelineBench()
        let packet = PipelineBench.tcp(.outbound, payload: 100)
        bench.pipeline.handle(packet, now: 5_000)
        #expect(bench.capture.records.map(\.bytes) == [Array(packet)])
        #expect(bench.capture.records[0].timestamp == PipelineBench.anchor.nanosecondsSince1970(forUptime: 5_000))
        #expect(bench.feed.published[0].capture == CaptureLocation(fileSequence: 9, recordOffset: 1_024))
        #expect(bench.pipeline.stats.packetsCaptured == 1)
    }

    @Test func captureOffLeavesTheLocationNil() {
        let bench = PipelineBench(captureEnabled: false)
        bench.pipeline.handle(PipelineBench.tcp(.outbound), now: 1)
        #expect(bench.capture.records.isEmpty && bench.feed.published[0].capture == nil)
    }

    @Test func aCaptureFailureTurnsCaptureOffUntilReArmed() {
        let bench = PipelineBench()
        bench.capture.failure = .writeFailed(path: "/full", errno: ENOSPC)
        bench.pipeline.handle(PipelineBench.tcp(.outbound), now: 1)
        bench.capture.failure = nil
        bench.pipeline.handle(PipelineBench.tcp(.inbound), now: 2)
        var stats = bench.pipeline.stats
        #expect(stats.captureFailures == 1 && stats.captureDisabledByFailure)
        #expect(stats.lastCaptureError == PcapError.writeFailed(path: "/full", errno: ENOSPC).description)
        #expect(bench.feed.published.map(\.capture) == [nil, nil])
        #expect(bench.capture.records.isEmpty)

        bench.pipeline.setCaptureEnabled(true)
        bench.pipeline.handle(PipelineBench.tcp(.outbound), now: 3)
        stats = bench.pipeline.stats
        #expect(!stats.captureDisabledByFailure && stats.captureFailures == 1 && stats.packetsCaptured == 1)
        #expect(bench.feed.published[2].capture != nil)
    }

    @Test func aFullRingDropsCountedAndTheReaderIsWokenPerBatchNotPerPacket() {
        let bench = PipelineBench()
        bench.feed.room = 2
        for now in 0..<5 { bench.pipeline.handle(PipelineBench.tcp(.outbound), now: UInt64(now)) }
        #expect(bench.feed.notifications == 0)
        bench.pipeline.wakeLiveFeed()
        bench.pipeline.wakeLiveFeed()
        let stats = bench.pipeline.stats
        #expect(stats.packetsPublished == 2 && stats.liveFeedDrops == 3)
        #expect(bench.feed.notifications == 1)
    }

    @Test func reinjectedRepliesAreRecordedInbound() {
        let bench = PipelineBench()
        bench.pipeline.handle(PipelineBench.tcp(.outbound, payload: 10), now: 1)
        let reply = PipelineBench.tcp(.inbound, payload: 300)
        #expect(bench.pipeline.record(reinjected: reply, now: 2).packetToRelay != nil)
        #expect(bench.feed.published.last?.direction == .inbound)
        let flow = bench.pipeline.flowTable.record(for: try! PacketParser.parse(reply).flowKey)
        #expect(flow?.bytesIn == UInt64(reply.count))
        let stats = bench.pipeline.stats
        #expect(stats.reinjectedRecorded == 1 && stats.packetsHandled == 1 && stats.packetsCaptured == 2)
    }
}
