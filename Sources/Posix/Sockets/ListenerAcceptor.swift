#if canImport(Glibc)
import Glibc
#endif
import CTunnelVision

/// Taking waiting connections off a listening socket on a level-triggered `EventLoop`, as both
/// servers do (the tunnel's control socket and the web app's): at most `burst` per readiness, so
/// a flood of connects is spread over turns of the loop and the other descriptors are served in
/// between; and when accept(2) fails for want of descriptors or memory, the listener is left
/// unwatched for `retryDelay` — still readable, it would be reported on every turn and spin the
/// loop — then watched again if it is still open. The numbers are each server's own policy.
package struct ListenerAcceptor: Sendable, Equatable {
    package let burst: Int
    package let retryDelay: Duration

    package init(burst: Int, retryDelay: Duration) {
        self.burst = burst
        self.retryDelay = retryDelay
    }

    /// Accepts what waits on `listener` (non-blocking, close-on-exec descriptors), each handed to
    /// `accepted`. A failure that pauses the listener is told to `paused` with its errno first;
    /// `listening` says, when the pause ends, whether the listener is still the server's.
    package func acceptWaiting(on listener: Int32, loop: EventLoop, listening: @escaping () -> Bool,
                               paused: (Int32) -> Void, accepted: (Int32) -> Void) {
        for _ in 0..<burst {
            let client = ctv_accept_nonblocking(listener)
            guard client >= 0 else {
                switch errno {
                case EAGAIN, EWOULDBLOCK: return
                case EINTR, ECONNABORTED: continue
                case let failure:
                    paused(failure)
                    try? loop.modify(listener, interest: [])
                    loop.schedule(after: retryDelay) { [weak loop] in
                        guard let loop, listening() else { return }
                        try? loop.modify(listener, interest: .read)
                    }
                    return
                }
            }
            accepted(client)
        }
    }
}
