#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Fixtures
import Shared

/// `tvlab ring produce`: the producer half of the live feed in a process of its own, so tests and
/// the benchmark can cross a real process boundary. It pushes `RingProbe` records (every field
/// derived from the record's index, so the reader can detect tearing) and reports on stdout.
enum RingCommand {
    /// Records between two wakeups: a batch, as the tunnel notifies after each batch.
    static let notifyEvery: UInt64 = 256

    static func produce(_ options: RingProduceOptions) throws(Failure) {
        let producer: RingBufferProducer
        do {
            producer = try RingBufferProducer(fileURL: URL(fileURLWithPath: options.ring), slotCount: options.slots)
        } catch {
            throw Failure("\(error)")
        }
        let stopwatch = Stopwatch()
        var pushed: UInt64 = 0
        for index in options.first..<options.first + options.records {
            if options.waitForSpace {
                while !producer.hasFreeSlot() { sched_yield() }
            }
            if producer.push(RingProbe.record(index)) {
                pushed += 1
            }
            if index % notifyEvery == notifyEvery - 1 { producer.notifyConsumer() }
        }
        producer.notifyConsumer()
        let seconds = stopwatch.elapsedSeconds
        let summary = "{\"generation\":\(producer.generation),\"pushed\":\(pushed),"
            + "\"dropped\":\(producer.droppedCount()),\"seconds\":\(seconds)}"
        FileDescriptor.writeAll(STDOUT_FILENO, text: summary + "\n")
        if options.abandon {
            // Leave as a crashed tunnel would: no close, the file still marked live.
            _exit(0)
        }
        producer.close()
    }
}

struct RingProduceOptions: Equatable {
    var ring: String
    var records: UInt64
    var first: UInt64 = 0
    var slots = RingGeometry.defaultSlotCount
    /// Spin until the consumer frees a slot instead of dropping (for lossless tests and the bench).
    var waitForSpace = false
    var abandon = false
}
