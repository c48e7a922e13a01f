/// The injected shell that tells the reader records are waiting: payload-less and coalesced.
/// On Linux it is the ring's own futex word (`AppLinux/LiveFeed/RingFutexWakeup`). After `stop()`
/// returns, `onWake` is never called again.
package protocol LiveFeedWakeup: Sendable {
    func start(onWake: @escaping @Sendable () -> Void)
    func stop()
}
