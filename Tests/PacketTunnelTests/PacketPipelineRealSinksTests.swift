import Fixtures
import Foundation
import Testing
import Shared
@testable import PacketTunnel

@Suite struct PacketPipelineRealSinksTests {
    /// PacketTunnelTests does not depend on TestSupport: a scratch directory of its own.
    final class Scratch {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-\(UUID().uuidString)")
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    @Test func syntheticTrafficReachesTheRingTheCaptureAndTheHistory() async throws {
        let scratch = Scratch()
        let anchor = MonotonicAnchor(uptimeNanoseconds: 1_000_000_000, wallClockNanosecondsSince1970: 1_796_005_130_000_000_000)
        let ringURL = scratch.url.appendingPathComponent("live.ring")
        try FileManager.default.createDirectory(at: scratch.url, withIntermediateDirectories: true)
        let ring = try RingBufferProducer(fileURL: ringURL, slotCount: 1_024)
        let reader = try RingBufferConsumer(fileURL: ringURL)
        let captures = scratch.url.appendingPathComponent("captures")
        let capture = try PcapFileWriter(config: .init(directory: captures, maxFileBytes: 32 << 10))
        let store = try FlowStore(databaseURL: scratch.url.appendingPathComponent("history.sqlite"), anchor: anchor)
        let queue = StoreWriterQueue(store: store, path: scratch.url.appendingPathComponent("history.sqlite").path)
        let pipeline = PacketPipeline(liveFeed: ring, capture: capture, store: queue,
                                      config: .init(batchSize: 64, anchor: anchor))

        var traffic = SyntheticTraffic(seed: 7)
        var sent: [Data] = []
        var bytes: [FlowKey: (out: UInt64, in: UInt64)] = [:]
        for _ in 0..<600 {
            let packet = traffic.next()
            let disposition = pipeline.handle(packet.bytes, now: anchor.uptimeNanoseconds + packet.offsetNanoseconds)
            let parsed = try #require(disposition.packetToRelay)
            let length = UInt64(packet.bytes.count)
            let outbound = TunnelAddressing.localAddresses.contains(parsed.ip.source)
            bytes[parsed.flowKey, default: (0, 0)].out += outbound ? length : 0
            bytes[parsed.flowKey, default: (0, 0)].in += outbound ? 0 : length
            sent.append(packet.bytes)
            if sent.count % 50 == 0 { pipeline.wakeLiveFeed() }
        }
        await pipeline.shutdown()

        let metas = try reader.drain(max: 1_000).map { packed throws in try PacketMeta(packed: packed) }
        #expect(metas.count == sent.count)
        let records = PcapRecordReader(directory: captures)
        for (meta, packet) in zip(metas, sent) {
            let location = try #require(meta.capture)
            #expect(try records.read(location).bytes == Array(packet))
            #expect(meta.length == UInt32(packet.count))
        }
        #expect(try CaptureDirectory.files(in: captures).count > 1, "the capture rotated along the way")

        #expect(try await store.flowCount() == bytes.count)
        for (key, expected) in bytes {
            let stored = try #require(try await store.flow(matching: key))
            #expect(stored.bytesOut == expected.out && stored.bytesIn == expected.in, "\(key)")
        }
        let stats = pipeline.stats
        #expect(stats.storeBatchesFailed == 0 && stats.storeBatchesWritten > 9 && stats.liveFeedDrops == 0)
        #expect(stats.packetsCaptured == 600 && stats.captureFailures == 0)
        await queue.finish()
        await store.close()
        try capture.close()
        ring.close()
    }
}
