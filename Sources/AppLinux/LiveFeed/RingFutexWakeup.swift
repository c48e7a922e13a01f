#if canImport(Glibc)
import Glibc
#endif
import App
import Foundation
import Shared

/// The live feed's wakeup on Linux: the ring's own payload-less signal. A thread of its own sleeps
/// on the header's wake word (a futex the producer bumps after each batch, with a syscall only
/// when someone sleeps) and calls `onWake` when it moves or a new session's file appears. It is
/// coalesced three times: by the producer (one bump per batch), by this thread (after a wakeup
/// it stays awake for `settle` before it sleeps on the word again) and by the reader (one drain
/// pending). The settle is what keeps the tunnel's cost flat: a reader that went straight back to
/// sleep after each drain would be woken — a FUTEX_WAKE syscall in the tunnel's packet path, a
/// context switch in ours — once per batch the tunnel writes, thousands of times a second at full
/// speed; while it settles the producer sees no sleeper and makes no syscall. The ring holds
/// 65 536 records, far more than a settle's worth at the tunnel's rate.
///
/// The thread wakes at least every `slice` to notice `stop()`; after `stop()` returns `onWake`
/// is never called again (the call happens under the same lock).
///
/// `@unchecked Sendable`: `generation` and `onWake` sit behind `lock` (an `NSLock`); each watch
/// thread makes and closes its own `RingNotificationWatch`.
package final class RingFutexWakeup: LiveFeedWakeup, @unchecked Sendable {
    package let fileURL: URL
    private let slice: Duration
    private let settle: Duration
    private let lock = NSLock()
    private var generation = 0
    private var onWake: (@Sendable () -> Void)?

    package init(fileURL: URL, slice: Duration = .milliseconds(250), settle: Duration = RingFutexWakeup.defaultSettle) {
        self.fileURL = fileURL
        self.slice = slice
        self.settle = settle
    }

    /// How long the thread stays awake after a wakeup: 50 wakeups a second at most, each well
    /// inside the dashboard's one-second lines.
    static let defaultSettle = Duration.milliseconds(20)

    package convenience init(dataDirectory: URL) {
        self.init(fileURL: DataDirectoryLayout.ring(in: dataDirectory))
    }

    package func start(onWake: @escaping @Sendable () -> Void) {
        let mine: Int = lock.withLock {
            generation += 1
            self.onWake = onWake
            return generation
        }
        let thread = Thread { [self] in watch(generation: mine) }
        thread.name = "live-feed wakeup"
        thread.start()
    }

    package func stop() {
        lock.withLock {
            generation += 1
            onWake = nil
        }
    }

    private func watch(generation mine: Int) {
        let watch = RingNotificationWatch(fileURL: fileURL)
        defer { watch.close() }
        while true {
            let outcome = watch.wait(timeout: slice)
            let stillMine: Bool = lock.withLock {
                guard generation == mine else { return false }
                if outcome == .notified || outcome == .sessionChanged { onWake?() }
                return true
            }
            if !stillMine { return }
            if outcome == .notified, settle > .zero { Self.sleep(settle) }
        }
    }

    private static func sleep(_ duration: Duration) {
        var interval = timespec(tv_sec: Int(duration.components.seconds),
                                tv_nsec: Int(duration.components.attoseconds / 1_000_000_000))
        nanosleep(&interval, nil)
    }
}
