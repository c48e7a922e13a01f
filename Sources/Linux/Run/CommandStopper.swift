import Foundation

/// Stops the monitored command when the tunnel under it fails — from the loop's thread, which
/// must not wait — whether the failure comes before the command has started (it is then stopped
/// the moment it is watched) or while it runs.
///
/// `@unchecked Sendable`: `running` and `stopRequested` sit behind `lock` (an `NSLock`); `grace` is
/// a `let`.
final class CommandStopper: @unchecked Sendable {
    private let grace: Duration
    private let lock = NSLock()
    private var running: RunningCommand?
    private var stopRequested = false

    init(grace: Duration) { self.grace = grace }

    /// The tunnel failed: SIGTERM to the command now (or once it is watched), its namespace
    /// killed after the grace.
    func stop() {
        lock.lock()
        stopRequested = true
        let running = running
        lock.unlock()
        running?.terminate(grace: grace)
    }

    func watch(_ command: RunningCommand) {
        lock.lock()
        running = command
        let stopNow = stopRequested
        lock.unlock()
        if stopNow { command.terminate(grace: grace) }
    }
}
