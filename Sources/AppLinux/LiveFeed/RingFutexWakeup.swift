import App
import Foundation
import Shared

/// The live feed's wakeup on Linux: the ring's own payload-less signal. A thread of its own sleeps
/// on the header's wake word (a futex the producer bumps after each batch, with a syscall only
/// when someone sleeps) and calls `onWake` when it moves or a new session's file appears. It is
/// coalesced twice: by the producer (one bump per batch) and by the reader (one drain pending).
///
/// The thread wakes at least every `slice` to notice `stop()`; after `stop()` returns `onWake`
/// is never called again (the call happens under the same lock).
public final class RingFutexWakeup: LiveFeedWakeup, @unchecked Sendable {
    public let fileURL: URL
    private let slice: Duration
    private let lock = NSLock()
    private var generation = 0
    private var onWake: (@Sendable () -> Void)?

    public init(fileURL: URL, slice: Duration = .milliseconds(250)) {
        self.fileURL = fileURL
        self.slice = slice
    }

    public convenience init(dataDirectory: URL) {
        self.init(fileURL: DataDirectoryLayout.ring(in: dataDirectory))
    }

    public func start(onWake: @escaping @Sendable () -> Void) {
        let mine: Int = lock.withLock {
            generation += 1
            self.onWake = onWake
            return generation
        }
        let thread = Thread { [self] in watch(generation: mine) }
        thread.name = "live-feed wakeup"
        thread.start()
    }

    public func stop() {
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
        }
    }
}
