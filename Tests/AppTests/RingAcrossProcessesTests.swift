import Fixtures
import Foundation
import TestSupport
import Shared
import Testing

/// The live feed across a real process boundary: a child `tvlab ring produce` writes, this process
/// reads, as the tunnel daemon and a `tunnelvision` reader do.
@Suite("The live-feed ring across two processes", .serialized)
struct RingAcrossProcessesTests {
    let directory = TemporaryDirectory()
    var ring: URL { directory.url.appendingPathComponent("live.ring") }

    /// Starts `tvlab ring produce` with `arguments`; its report lands in `report`.
    private func startProducer(_ arguments: [String], report: URL) throws -> Process {
        let process = Process()
        process.executableURL = try BuiltProduct.url("tvlab")
        process.arguments = ["ring", "produce", "--ring", ring.path] + arguments
        _ = FileManager.default.createFile(atPath: report.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: report)
        try process.run()
        return process
    }

    private func openConsumer(generationAbove previous: UInt64 = 0) throws -> RingBufferConsumer {
        let deadline = Date().addingTimeInterval(30)
        while true {
            if let consumer = try? RingBufferConsumer(fileURL: ring), consumer.generation > previous { return consumer }
            guard Date() < deadline else { throw CocoaError(.fileNoSuchFile) }
            usleep(2_000)
        }
    }

    /// Drains until `count` records arrived or the producer closed with nothing left, sleeping in
    /// `wait` between batches as a real reader does.
    private func drain(_ consumer: RingBufferConsumer, count: Int) -> [PackedPacketMeta] {
        var received: [PackedPacketMeta] = []
        var batch: [PackedPacketMeta] = []
        let deadline = Date().addingTimeInterval(60)
        while received.count < count, Date() < deadline {
            batch.removeAll(keepingCapacity: true)
            if consumer.drain(into: &batch, max: 1024) == 0 {
                if consumer.sessionState == .closed, consumer.drain(into: &batch, max: 1) == 0 { break }
                _ = consumer.wait(timeout: .milliseconds(200))
            }
            received += batch
        }
        return received
    }

    @Test("a child process produces 300 000 records and this one drains every one, whole and in order")
    func childProduces() throws {
        let count = 300_000
        let report = directory.url.appendingPathComponent("report.json")
        let child = try startProducer(["--records", "\(count)", "--slots", "1024", "--wait-for-space"], report: report)
        let consumer = try openConsumer()
        let received = drain(consumer, count: count)
        child.waitUntilExit()
        #expect(child.terminationStatus == 0)
        #expect(received.count == count)
        #expect(received.map { RingProbe.index(of: $0) } == (0..<UInt64(count)).map { $0 })
        #expect(consumer.droppedCount() == 0)
        let summary = try String(contentsOf: report, encoding: .utf8)
        #expect(summary.contains("\"pushed\":\(count)"))
    }

    @Test("when this reader falls behind, the producer drops and counts instead of waiting, and what arrives is whole")
    func childDropsWhenFull() throws {
        let count = 100_000
        let report = directory.url.appendingPathComponent("report.json")
        let child = try startProducer(["--records", "\(count)", "--slots", "64"], report: report)
        child.waitUntilExit()   // nobody drains while it runs: the ring fills after 64
        let consumer = try openConsumer()
        let received = consumer.drain(max: 1000)
        #expect(child.terminationStatus == 0)
        #expect(received.map(\.timestamp) == Array(0..<64))
        #expect(received.allSatisfy { RingProbe.index(of: $0) != nil })
        #expect(consumer.droppedCount() == UInt64(count - 64))
    }

    @Test("a producer that dies without closing is replaced by the next session, and the reader follows without loss")
    func crashedProducerIsSuperseded() throws {
        let report = directory.url.appendingPathComponent("report.json")
        let first = try startProducer(["--records", "3000", "--slots", "4096", "--abandon"], report: report)
        first.waitUntilExit()
        #expect(first.terminationStatus == 0)
        let consumer = try openConsumer()
        let generation = consumer.generation
        #expect(consumer.sessionState == .live)   // it never said goodbye
        var received = consumer.drain(max: 1000)

        let second = try startProducer(["--records", "2000", "--first", "3000", "--slots", "2048", "--wait-for-space"],
                                       report: report)
        received += drain(consumer, count: 4000)
        second.waitUntilExit()
        #expect(second.terminationStatus == 0)
        #expect(received.map(\.timestamp) == Array(0..<5000))
        #expect(received.allSatisfy { RingProbe.index(of: $0) != nil })
        #expect(consumer.generation == generation + 1)
        #expect(consumer.reattachCount == 1)
    }

    @Test("a second producer process is refused while the first is alive")
    func secondProducerRefused() throws {
        let producer = try RingBufferProducer(fileURL: ring, slotCount: 16)
        defer { producer.close() }
        let output = try BuiltProduct.run(try BuiltProduct.url("tvlab"),
                                          ["ring", "produce", "--ring", ring.path, "--records", "1"])
        #expect(output.status == 1)
        #expect(output.err.contains("another tunnel is feeding"))
    }
}
