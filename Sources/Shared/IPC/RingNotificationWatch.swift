#if canImport(Glibc)
import Glibc
#endif
import CTunnelVision
import Foundation

/// The ring's payload-less wakeup seen from the reader's side, apart from the consumer: it maps
/// the file only to sleep on the header's wake word (a futex), never touches `tail`, and follows
/// the path from one session's file to the next. The live feed's wakeup shell runs one on its own
/// thread, so the single consumer stays wherever it is (an actor) and is merely told to drain.
///
/// `@unchecked Sendable`: one thread uses an instance at a time.
package final class RingNotificationWatch: @unchecked Sendable {
    private var mapping: RingMapping?
    private var observedSequence: UInt32 = 0
    package let path: String

    package init(fileURL: URL) { path = fileURL.path }

    /// Blocks until the producer posts a wakeup, a new session's file replaces the watched one,
    /// or `timeout` passes. With no ring at the path it sleeps `timeout` and says so.
    package func wait(timeout: Duration) -> RingNotification {
        if let mapping, mapping.state != .superseded, mapping.pathStillNamesThisFile() {
            let nanoseconds = Int64(timeout.components.seconds) * 1_000_000_000
                + timeout.components.attoseconds / 1_000_000_000
            ctv_ring_wait_for_notify(mapping.header, observedSequence, nanoseconds)
            let now = ctv_ring_wake_sequence(mapping.header)
            guard now != observedSequence else { return .timedOut }
            observedSequence = now
            return .notified
        }
        let hadFile = mapping != nil
        mapping?.unmap()
        mapping = Self.open(path)
        if let mapping {
            observedSequence = ctv_ring_wake_sequence(mapping.header)
            return .sessionChanged
        }
        if hadFile { return .sessionChanged }
        var interval = timespec(tv_sec: Int(timeout.components.seconds),
                                tv_nsec: Int(timeout.components.attoseconds / 1_000_000_000))
        nanosleep(&interval, nil)
        return .noRing
    }

    /// Opened under the ring's shared lock, as the consumer does, so a producer mid-way through
    /// creating a session is never seen half made.
    private static func open(_ path: String) -> RingMapping? {
        let lock = RingLock.shared(forRing: path)
        defer { lock?.release() }
        return try? RingMapping.open(path: path)
    }

    package func close() {
        mapping?.unmap()
        mapping = nil
    }

    deinit { close() }
}

/// Why `RingNotificationWatch.wait` returned.
package enum RingNotification: Sendable, Hashable {
    /// The producer posted a wakeup: records (or a session's end) wait for the consumer.
    case notified
    /// The path names another file than before (a new session), or the watched one went away.
    case sessionChanged
    case timedOut
    /// No ring at the path (no tunnel has run on this data directory); the watch slept.
    case noRing
}
