#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
import Testing
@testable import PacketTunnel
@testable import Shared

/// Recording stops on a failure of the disk, the tunnel does not: the pipeline and the history
/// writer count exactly what was lost, tell the person once, at that moment, and a full disk is
/// not hammered with writes.
@Suite("Recording stops on a full disk, with counters and one notice")
struct RecordingStopTests {
    /// What a notice sink received, from whichever thread told it.
    final class Notices: Sendable {
        let received = Mutex<[RecordingStop]>([])
        var all: [RecordingStop] { received.withLock { $0 } }
        func tell(_ stop: RecordingStop) { received.withLock { $0.append(stop) } }
    }

    // SQLite's primary result codes (sqlite3.h), which this target does not import.
    static let sqliteFull: Int32 = 13, sqliteIOError: Int32 = 10, sqliteBusy: Int32 = 5

    static let full = StoreError.diskFull(path: "/d/TunnelVision.sqlite",
                                          SQLiteError(code: sqliteFull, message: "database or disk is full"))

    @Test("a full disk stops capture once: one notice, the packets still buffered are not counted captured")
    func captureStopsOnce() {
        let bench = PipelineBench()
        let notices = Notices()
        bench.pipeline.recordingStopped = notices.tell
        for now in 1...3 { bench.pipeline.handle(PipelineBench.tcp(.outbound), now: UInt64(now)) }
        // Two of the three were still in the writer's buffer when the disk filled.
        bench.capture.recordsOnDisk = 1
        bench.capture.failure = .writeFailed(path: "/d/captures/x.pcap", errno: ENOSPC)
        for now in 4...9 { bench.pipeline.handle(PipelineBench.tcp(.inbound), now: UInt64(now)) }
        let stats = bench.pipeline.stats
        #expect(stats.packetsCaptured == 1)
        #expect(stats.captureFailures == 1 && stats.captureDisabledByFailure && stats.diskFull)
        #expect(stats.packetsHandled == 9 && stats.packetsPublished == 9, "the packets went on")
        #expect(notices.all == [RecordingStop(part: .capture, packetsRecorded: 1, diskFull: true,
                                              reason: "cannot write capture file /d/captures/x.pcap: No space left on device")])
        #expect(notices.all.first?.sentence(dataDirectory: "/d")
                == "the disk holding /d is full: capture stopped after 1 packet; the tunnel keeps forwarding")
    }

    @Test("a capture that breaks for another reason says that reason, and is not called a full disk")
    func captureBrokenOtherwise() {
        let bench = PipelineBench()
        let notices = Notices()
        bench.pipeline.recordingStopped = notices.tell
        bench.capture.failure = .writeFailed(path: "/d/x.pcap", errno: EIO)
        bench.pipeline.handle(PipelineBench.tcp(.outbound), now: 1)
        #expect(!bench.pipeline.stats.diskFull)
        #expect(notices.all.map { $0.sentence(dataDirectory: "/d") }
                == ["capture stopped after 0 packets: cannot write capture file /d/x.pcap: Input/output error; the tunnel keeps forwarding"])
    }

    @Test("after SQLITE_FULL the history is told stopped once and is not written again until the pause has passed")
    func historyPausesOnAFullDisk() async {
        let attempts = Mutex(0)
        let clock = Mutex<UInt64>(1_000)
        let failing = Mutex(true)
        let notices = Notices()
        let queue = StoreWriterQueue(capacity: 64, recordingStopped: notices.tell,
                                     clock: { clock.withLock { $0 } }) { _ throws(StoreError) in
            attempts.withLock { $0 += 1 }
            if failing.withLock({ $0 }) { throw Self.full }
        }
        #expect(queue.persist(StoreWriterQueueTests.batch(packets: 7)))
        await queue.drain()
        failing.withLock { $0 = true }
        // Forty more batches while the disk is full: none reaches SQLite, all are counted lost.
        for _ in 0..<40 { #expect(queue.persist(StoreWriterQueueTests.batch(packets: 3))) }
        await queue.drain()
        #expect(attempts.withLock { $0 } == 1)
        var outcomes = queue.outcomes
        #expect(outcomes.batchesFailed == 41 && outcomes.packetsLost == 7 + 40 * 3 && outcomes.diskFull)
        #expect(outcomes.lastError == Self.full.description)
        #expect(notices.all == [RecordingStop(history: Self.full, packetsWritten: 0)])

        // Past the pause one batch is tried; the disk has room again, so the history resumes.
        clock.withLock { $0 += StoreFailurePause.retryInterval }
        failing.withLock { $0 = false }
        for _ in 0..<2 { #expect(queue.persist(StoreWriterQueueTests.batch(packets: 5))) }
        await queue.drain()
        outcomes = queue.outcomes
        #expect(attempts.withLock { $0 } == 3)
        #expect(outcomes.batchesWritten == 2 && outcomes.packetsWritten == 10)
        #expect(notices.all.count == 1)
        await queue.finish()
    }

    @Test("a lock held past the busy timeout loses only its own batch and stops nothing")
    func lockedLosesOneBatch() async {
        let attempts = Mutex(0)
        let notices = Notices()
        let queue = StoreWriterQueue(recordingStopped: notices.tell) { _ throws(StoreError) in
            let attempt = attempts.withLock { $0 += 1; return $0 }
            if attempt == 1 { throw .locked(path: "/d/h", SQLiteError(code: Self.sqliteBusy, message: "database is locked")) }
        }
        for _ in 0..<3 { #expect(queue.persist(StoreWriterQueueTests.batch(packets: 1))) }
        await queue.drain()
        #expect(attempts.withLock { $0 } == 3)
        #expect(queue.outcomes.batchesFailed == 1 && queue.outcomes.batchesWritten == 2 && !queue.outcomes.diskFull)
        #expect(notices.all.isEmpty)
        await queue.finish()
    }

    @Test("the pause: admits until a failure of the disk, then not until the interval has passed",
          arguments: [(StoreError.diskFull(path: "p", SQLiteError(code: RecordingStopTests.sqliteFull, message: "")), true),
                      (.ioFailed(path: "p", SQLiteError(code: RecordingStopTests.sqliteIOError, message: "")), true),
                      (.locked(path: "p", SQLiteError(code: RecordingStopTests.sqliteBusy, message: "")), false),
                      (.closed, false)])
    func pauseDecisions(error: StoreError, pauses: Bool) {
        var pause = StoreFailurePause()
        #expect(pause.admits(now: 0))
        let stopped = pause.failed(error, now: 100)
        #expect(stopped == pauses)
        #expect(pause.admits(now: 101) == !pauses)
        #expect(pause.admits(now: 100 + StoreFailurePause.retryInterval))
        if pauses {
            let again = pause.failed(error, now: 100 + StoreFailurePause.retryInterval)
            #expect(!again, "still stopped: told once")
            pause.succeeded()
            #expect(pause.admits(now: 0) && !pause.isPaused)
        }
    }
}

@Suite("The room recording leaves free")
struct DiskReserveTests {
    @Test("a write is allowed only while it leaves the reserve free", arguments: [
        (UInt64(2 << 20), UInt64(65_536), true), (UInt64(1 << 20) + 65_536, 65_536, true),
        (UInt64(1 << 20) + 65_535, 65_536, false), (0, 0, false),
    ])
    func reserve(available: UInt64, needed: UInt64, allowed: Bool) {
        #expect(DiskReserve.leaves(DiskReserve.captureBytes, available: available, needed: needed) == allowed)
    }

    @Test("the history's reserve reads as a full disk, so it pauses like SQLITE_FULL")
    func historyReserveIsAFullDisk() {
        let error = StoreError.reserveReached(path: "/d/TunnelVision.sqlite")
        #expect(error.meansDiskFull)
        #expect(StoreFailurePause.failsTheDisk(error))
    }
}
