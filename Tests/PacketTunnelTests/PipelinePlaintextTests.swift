import Foundation
import Testing
import Shared
@testable import PacketTunnel

@Suite struct PipelinePlaintextTests {
    final class Scratch {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("plaintext-pipeline-\(UUID().uuidString)")
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    static let now: UInt64 = 5_000_000_000
    var key: FlowKey { FlowKey(proto: .tcp, source: PipelineBench.device4, destination: PipelineBench.remote4) }

    func bench(_ scratch: Scratch, budget: Int = PlaintextBudget.defaultBytesPerDirection, maxFileBytes: UInt64 = 1 << 20) -> (PipelineBench, PlaintextWriter) {
        let bench = PipelineBench()
        let writer = PlaintextWriter(config: .init(directory: scratch.url, maxFileBytes: maxFileBytes, highestReferencedStream: 10))
        bench.pipeline.config.plaintextBytesPerDirection = budget
        bench.pipeline.plaintextSink = writer
        bench.pipeline.handle(PipelineBench.tcp(.outbound, flags: [.syn]), now: Self.now)
        return (bench, writer)
    }

    @Test("a chunk is written, and its index row waits for the flush with the location, one conversation per flow, dated from one anchor")
    func writtenAndIndexed() throws {
        let scratch = Scratch()
        let (bench, writer) = bench(scratch)
        let first = try #require(bench.pipeline.observe(plaintext: Data("GET / HTTP/1.1\r\n".utf8), direction: .outbound, for: key, now: Self.now + 1))
        let second = try #require(bench.pipeline.observe(plaintext: Data("HTTP/1.1 200".utf8), direction: .inbound, for: key, now: Self.now + 2))
        #expect(bench.store.batches.isEmpty)
        bench.pipeline.flush(now: Self.now + 3)
        let rows = try #require(bench.store.batches.last).plaintext
        #expect(rows.map(\.location) == [first, second])
        #expect(Set(rows.map(\.stream)) == [11])
        #expect(rows[0].timestamp == Self.now + 1)
        let file = try Data(contentsOf: try #require(writer.files().first))
        let header = try PlaintextFormat.RecordHeader(parsing: file.subdata(in: 16..<48), offset: 16)
        #expect(header.timestamp == PipelineBench.anchor.nanosecondsSince1970(forUptime: Self.now + 1))
        #expect(bench.pipeline.stats.plaintext?.plaintextChunksWritten == 2)
        #expect(bench.pipeline.stats.plaintext?.plaintextBytesStored == 28)
    }

    @Test("the budget keeps the beginning per direction, reports the truncation, and an exhausted budget touches no disk")
    func budget() throws {
        let scratch = Scratch()
        let (bench, writer) = bench(scratch, budget: 10)
        _ = bench.pipeline.observe(plaintext: Data(repeating: 0x61, count: 6), direction: .outbound, for: key, now: Self.now)
        _ = bench.pipeline.observe(plaintext: Data(repeating: 0x62, count: 8), direction: .outbound, for: key, now: Self.now)
        #expect(bench.pipeline.observe(plaintext: Data(repeating: 0x63, count: 8), direction: .outbound, for: key, now: Self.now) == nil)
        _ = bench.pipeline.observe(plaintext: Data(repeating: 0x64, count: 10), direction: .inbound, for: key, now: Self.now)
        bench.pipeline.flush(now: Self.now)
        let rows = try #require(bench.store.batches.last).plaintext
        #expect(rows.map(\.storedLength) == [6, 4, 10])
        #expect(rows.map(\.originalLength) == [6, 8, 10])
        #expect(bench.pipeline.stats.plaintext?.plaintextBytesTruncated == 12)
        let url = try #require(writer.files().first)
        let size = try #require(FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        #expect(size == 16 + 3 * 32 + 20)
    }

    @Test("a chunk whose flow is not in the table is refused before anything touches disk")
    func refused() throws {
        let scratch = Scratch()
        let (bench, writer) = bench(scratch)
        let stranger = FlowKey(proto: .tcp, source: PipelineBench.device4, destination: PipelineBench.remote6)
        #expect(bench.pipeline.observe(plaintext: Data("x".utf8), direction: .outbound, for: stranger, now: Self.now) == nil)
        #expect(bench.pipeline.stats.plaintext?.plaintextChunksRefused == 1)
        #expect(writer.files().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: scratch.url.path))
    }

    @Test("a write failure stops only decrypted content, says so once, and the tunnel's packets go on")
    func writeFailure() throws {
        let scratch = Scratch()
        try FileManager.default.createDirectory(at: scratch.url.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: scratch.url.path, contents: Data("not a directory".utf8))
        let (bench, _) = bench(scratch)
        let stops = StopCollector()
        bench.pipeline.recordingStopped = { stops.add($0) }
        _ = bench.pipeline.observe(plaintext: Data("x".utf8), direction: .outbound, for: key, now: Self.now)
        _ = bench.pipeline.observe(plaintext: Data("y".utf8), direction: .outbound, for: key, now: Self.now)
        #expect(bench.pipeline.stats.plaintext?.plaintextWriteFailures == 1)
        #expect(bench.pipeline.stats.plaintext?.plaintextDisabledByFailure == true)
        #expect(stops.parts == [.plaintext])
        #expect(bench.pipeline.handle(PipelineBench.tcp(.inbound), now: Self.now + 1).packetToRelay != nil)
    }

    @Test("without a sink the stats carry no plaintext group at all")
    func absentWhenNotRecording() {
        #expect(PipelineBench().pipeline.stats.plaintext == nil)
    }
}

final class StopCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var stops: [RecordingStop] = []
    func add(_ stop: RecordingStop) { lock.withLock { stops.append(stop) } }
    var parts: [RecordingStop.Part] { lock.withLock { stops.map(\.part) } }
}
