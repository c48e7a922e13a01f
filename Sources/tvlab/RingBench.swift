#if canImport(Glibc)
import Glibc
#endif
import Fixtures
import Foundation
import Shared

/// `tvlab bench ring`: records moved through the live-feed ring from a producer process (a child
/// `tvlab ring produce`) to this one, which drains as the app's reader would. Timed from the first
/// record drained to the last, so starting the child is not counted.
enum RingBench {
    static let target = 20_000_000.0
    static let drainBatch = 4096
    /// Every record's order is checked; every 1024th is also checked whole (recomputing a probe
    /// record costs as much as moving one).
    static let wholeCheckInterval: UInt64 = 1024

    struct Figures {
        let records: UInt64
        let seconds: Double
        var recordsPerSecond: Double { Double(records) / seconds }
        /// The memory traffic the rate implies: each record is written once and read once.
        var bytesPerSecond: Double { recordsPerSecond * Double(PackedPacketMeta.packedByteCount) }
        var met: Bool { recordsPerSecond >= RingBench.target }
    }

    static func measure(records: UInt64, slots: Int, in directory: String) throws(Failure) -> Figures {
        let ring = directory + "/bench.ring"
        let tvlab = try FileSystem.executableDirectory() + "/tvlab"
        let child = try Subprocess.start(tvlab, ["ring", "produce", "--ring", ring, "--records", "\(records)",
                                                 "--slots", "\(slots)", "--wait-for-space"],
                                         outputPath: directory + "/producer.json")
        var consumer: RingBufferConsumer?
        let opening = Stopwatch()
        while consumer == nil {
            consumer = try? RingBufferConsumer(fileURL: URL(fileURLWithPath: ring))
            if consumer == nil {
                guard opening.elapsedSeconds < 30 else { throw Failure("the producer never created \(ring)") }
                usleep(1_000)
            }
        }
        guard let consumer else { throw Failure("unreachable") }
        var batch: [PackedPacketMeta] = []
        batch.reserveCapacity(drainBatch)
        var received: UInt64 = 0
        var started: Stopwatch?
        while received < records {
            batch.removeAll(keepingCapacity: true)
            if consumer.drain(into: &batch, max: drainBatch) == 0 {
                guard consumer.sessionState == .live else { break }
                continue   // spin: this is a throughput measurement, not a reader at rest
            }
            if started == nil { started = Stopwatch() }
            for record in batch {
                guard record.timestamp == received,
                      received % wholeCheckInterval != 0 || RingProbe.index(of: record) == received else {
                    throw Failure("record \(received) arrived torn or out of order")
                }
                received += 1
            }
        }
        let seconds = started?.elapsedSeconds ?? .nan
        let outcome = try child.wait()
        guard outcome.succeeded else { throw Failure("the producer process failed: \(outcome.summary)") }
        guard received == records else { throw Failure("received \(received) of \(records) records") }
        return Figures(records: records, seconds: seconds)
    }
}
