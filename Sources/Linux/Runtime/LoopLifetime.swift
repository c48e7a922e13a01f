import Dispatch
import Foundation
import Posix

/// The life of a runtime's loop thread, the same for the tunnel and the passive runtime: the first
/// failure that ended it (kept, read from any thread), and the moment it ended (waited for by
/// `stop`, which may come after a failure, or twice).
///
/// `@unchecked Sendable`: `recorded` sits behind `lock` (an `NSLock`), and `finished` is a
/// `DispatchSemaphore`.
final class LoopLifetime: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var recorded: TunnelFailure?

    /// Why the loop stopped by itself; nil while it runs, and after a stop it did not fail before.
    var failure: TunnelFailure? {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    /// Keeps `failure` if it is the first; whether it was (only the first one ends anything).
    func record(_ failure: TunnelFailure) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard recorded == nil else { return false }
        recorded = failure
        return true
    }

    /// Said by the loop thread as it ends.
    func ended() { finished.signal() }

    /// The loop thread's body: runs `loop` until it stops; an epoll that fails is the runtime's
    /// failure (`fail`), and a failure that ended it is told to `onFailure` before the end is said.
    func run(_ loop: EventLoop, fail: (TunnelFailure) -> Void, onFailure: ((TunnelFailure) -> Void)?) {
        do throws(EventLoopError) { try loop.run() } catch {
            fail(.loopFailed(error))
        }
        if let failure { onFailure?(failure) }
        ended()
    }

    /// Returns once the loop thread has ended; every waiter passes the news on.
    func waitUntilEnded() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async { [finished] in
                finished.wait()
                finished.signal()
                continuation.resume()
            }
        }
    }
}
