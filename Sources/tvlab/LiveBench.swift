#if canImport(Glibc)
import Glibc
#endif
import App
import AppLinux
import Fixtures
import Foundation
import Shared
import Synchronization

/// `tvlab bench live [--seconds S] [--rate R] [--json]`: does the live reader keep up? A producer
/// thread pushes into a real ring file for S seconds — flat out (`--rate 0`, the default) or at R
/// records a second — in batches of 256 with a wakeup after each, as the tunnel does; the real
/// `LiveFeedReader`, woken by the ring's futex, drains it while a dashboard frame is drawn once a
/// second (rendered and thrown away). Reports records produced, consumed and dropped.
enum LiveBench {
    static let batch = 256

    struct Figures {
        var seconds: Double
        var pushed: UInt64
        var dropped: UInt64
        var consumed: UInt64
        var frames: Int
        var producedPerSecond: Double { Double(pushed + dropped) / seconds }
        var consumedPerSecond: Double { Double(consumed) / seconds }
    }

    static func run(seconds: Int, rate: Int, json: Bool) async throws(Failure) {
        let directory = try FileSystem.makeTemporaryDirectory(in: FileSystem.temporaryParent, prefix: "tvlab-live-")
        defer { FileSystem.removeTree(directory) }
        let ring = URL(fileURLWithPath: directory + "/live.ring")
        let producer: RingBufferProducer
        do { producer = try RingBufferProducer(fileURL: ring, slotCount: RingGeometry.defaultSlotCount) } catch {
            throw Failure("\(error)")
        }
        Console.progress("producing for \(seconds) s " + (rate == 0 ? "flat out" : "at \(rate) records/s") + " into a 65 536-slot ring…")
        let reader = LiveFeedReader(fileURL: ring, wakeup: RingFutexWakeup(fileURL: ring))
        await reader.start()
        let frames = Atomic<Int>(0)
        let drawing = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                let dashboard = LiveDashboard(snapshot: await reader.snapshot, names: LiveDashboardNames(), directory: directory)
                let frame = dashboard.frame(LiveDashboardLayout(columns: 120, rows: 40, samples: 60))
                if !frame.isEmpty { frames.add(1, ordering: .relaxed) }
            }
        }
        let started = Date()
        let done = Atomic<Bool>(false)
        let pushed = Atomic<UInt64>(0)
        let thread = Thread {
            var index: UInt64 = 0
            var written: UInt64 = 0
            let deadline = started.addingTimeInterval(Double(seconds))
            while Date() < deadline {
                for _ in 0..<batch {
                    if producer.push(RingProbe.record(index)) { written += 1 }
                    index += 1
                }
                producer.notifyConsumer()
                if rate > 0 {
                    let due = started.addingTimeInterval(Double(index) / Double(rate))
                    let wait = due.timeIntervalSinceNow
                    if wait > 0 { usleep(UInt32(wait * 1e6)) }
                }
            }
            pushed.store(written, ordering: .relaxed)
            done.store(true, ordering: .releasing)
        }
        thread.start()
        while !done.load(ordering: .acquiring) { try? await Task.sleep(for: .milliseconds(20)) }
        let produced = Date().timeIntervalSince(started)
        let written = pushed.load(ordering: .relaxed)
        // What is still in the ring when the producer stops is drained before the clock stops.
        while await reader.snapshot.packetCount < written, Date().timeIntervalSince(started) < produced + 10 {
            try? await Task.sleep(for: .milliseconds(5))
        }
        let elapsed = Date().timeIntervalSince(started)
        let snapshot = await reader.snapshot
        drawing.cancel()
        await reader.stop()
        let figures = Figures(seconds: elapsed, pushed: written, dropped: producer.droppedCount(),
                              consumed: snapshot.packetCount, frames: frames.load(ordering: .relaxed))
        producer.close()
        report(figures, rate: rate, json: json)
    }

    static func report(_ figures: Figures, rate: Int, json: Bool) {
        if json {
            print("{\"seconds\":\(figures.seconds),\"rate\":\(rate),\"pushed\":\(figures.pushed),\"dropped\":\(figures.dropped),"
                  + "\"consumed\":\(figures.consumed),\"producedPerSecond\":\(Int(figures.producedPerSecond)),"
                  + "\"consumedPerSecond\":\(Int(figures.consumedPerSecond)),\"frames\":\(figures.frames)}")
            return
        }
        print("tvlab bench live — " + (rate == 0 ? "producer flat out" : "producer at \(rate) records/s")
              + ", the reader woken by the ring's futex, a frame drawn each second\n")
        print(String(format: "  produced %.0f records/s (%llu written, %llu dropped because the ring was full)",
                     figures.producedPerSecond, figures.pushed, figures.dropped))
        print(String(format: "  consumed %.0f records/s (%llu of the %llu written; %d frames drawn in %.1f s)",
                     figures.consumedPerSecond, figures.consumed, figures.pushed, figures.frames, figures.seconds))
    }
}
