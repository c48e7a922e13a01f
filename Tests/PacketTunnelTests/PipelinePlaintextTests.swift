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

    func bench(_ scratch: Scratch, limits: PlaintextBudget.Limits = .standard, maxRecordBytes: UInt32 = PlaintextFormat.defaultMaxRecordBytes,
               maxFileBytes: UInt64 = 1 << 20) -> (PipelineBench, PlaintextWriter) {
        let bench = PipelineBench()
        let writer = PlaintextWriter(config: .init(directory: scratch.url, maxRecordBytes: maxRecordBytes, maxFileBytes: maxFileBytes,
                                                   highestReferencedStream: 10))
        bench.pipeline.config.plaintextLimits = limits
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

    @Test("the budget keeps each turn's beginning, places what it dropped as gaps, and a run still dropped touches no disk")
    func budget() throws {
        let scratch = Scratch()
        let (bench, writer) = bench(scratch, limits: .init(bytesPerTurn: 10, bytesPerDirection: 100))
        _ = bench.pipeline.observe(plaintext: Data(repeating: 0x61, count: 6), direction: .outbound, for: key, now: Self.now)
        _ = bench.pipeline.observe(plaintext: Data(repeating: 0x62, count: 8), direction: .outbound, for: key, now: Self.now + 1)
        #expect(bench.pipeline.observe(plaintext: Data(repeating: 0x63, count: 8), direction: .outbound, for: key, now: Self.now + 2) != nil)
        #expect(bench.pipeline.observe(plaintext: Data(repeating: 0x63, count: 3), direction: .outbound, for: key, now: Self.now + 3) == nil)
        _ = bench.pipeline.observe(plaintext: Data(repeating: 0x64, count: 10), direction: .inbound, for: key, now: Self.now + 4)
        bench.pipeline.flush(now: Self.now + 4)
        let rows = try #require(bench.store.batches.last).plaintext
        #expect(rows.map(\.storedLength) == [6, 4, 0, 10])
        #expect(rows.map(\.originalLength) == [6, 8, 8, 10])
        // The gap said at once is dated with the direction's chunk before it: it stays in its turn.
        #expect(rows.map(\.timestamp) == [Self.now, Self.now + 1, Self.now + 1, Self.now + 4])
        #expect(bench.pipeline.stats.plaintext?.plaintextBytesTruncated == 15)
        let url = try #require(writer.files().first)
        let size = try #require(FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        #expect(size == 16 + 4 * 32 + 20)
    }

    @Test("when the flow ends, the gap its budget still owed is written in its direction, dated with its last chunk")
    func closingGapWrittenAtTheEnd() throws {
        let scratch = Scratch()
        let (bench, _) = bench(scratch, limits: .init(bytesPerTurn: 4, bytesPerDirection: 100))
        _ = bench.pipeline.observe(plaintext: Data(repeating: 0x61, count: 4), direction: .inbound, for: key, now: Self.now + 1)
        _ = bench.pipeline.observe(plaintext: Data(repeating: 0x61, count: 5), direction: .inbound, for: key, now: Self.now + 2)
        _ = bench.pipeline.observe(plaintext: Data(repeating: 0x61, count: 7), direction: .inbound, for: key, now: Self.now + 3)
        bench.pipeline.handle(PipelineBench.tcp(.inbound, flags: [.rst]), now: Self.now + 4)
        _ = bench.pipeline.tick(now: Self.now + 3_600_000_000_000)   // past any linger: the flow ends
        bench.pipeline.flush(now: Self.now + 3_600_000_000_000)
        let rows = bench.store.batches.flatMap(\.plaintext)
        #expect(rows.map(\.storedLength) == [4, 0, 0])
        #expect(rows.map(\.originalLength) == [4, 5, 7])
        #expect(rows.last?.timestamp == Self.now + 3)
    }

    @Test("what the budget keeps in one piece larger than a file's record is written as several whole records")
    func keptPiecesSplitAtTheRecordLimit() throws {
        let scratch = Scratch()
        let (bench, _) = bench(scratch, limits: .init(bytesPerTurn: 40, bytesPerDirection: 100), maxRecordBytes: 16)
        _ = bench.pipeline.observe(plaintext: Data(repeating: 0x61, count: 50), direction: .outbound, for: key, now: Self.now)
        bench.pipeline.flush(now: Self.now)
        let rows = try #require(bench.store.batches.last).plaintext
        #expect(rows.map(\.storedLength) == [16, 16, 8])
        #expect(rows.map(\.originalLength) == [16, 16, 18])
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
