#if canImport(Glibc)
import Glibc
#endif
import CTunnelVision
import Foundation
import Shared

/// One thread, one epoll instance: the thread that calls `run()` owns every descriptor registered
/// here, every handler and every timer (STYLE practice 10). Other threads get in only through
/// `execute`, which queues a closure and wakes the loop through an eventfd, and `stop`.
///
/// **Level-triggered.** A handler is called on every turn while its descriptor stays ready, so a
/// handler may read one batch and leave the rest for the next turn — fairness between flows comes
/// for free, and a handler that stops early loses nothing. The price: a descriptor registered for
/// `.write` is reported writable on every turn, so the owner asks for `.write` only while it has
/// bytes queued (`modify`), and a descriptor in error or hung up is reported until it is
/// unregistered. End of stream shows as `.readable` (the read returns 0).
///
/// **Timers** live in a `TimerQueue` (a pure min-heap) behind one timerfd armed at the earliest
/// deadline on CLOCK_MONOTONIC, so a thousand idle timers cost one descriptor and no thread.
///
/// **Batches**: up to `batchSize` events per epoll_wait; then timers, queued closures and `stop`
/// are handled in the same turn as any other descriptor's event.
///
/// `register`, `modify`, `unregister`, `schedule` and `cancel` must be called on the loop thread
/// (or before `run`); from elsewhere, wrap them in `execute`.
///
/// `@unchecked Sendable`: `registrations`, `nextGeneration`, `timers` and `armedDeadline` are
/// touched only on the loop thread (or before `run`); `queued`, `stopRequested` and `loopThread`
/// sit behind `lock` (an `NSLock`).
package final class EventLoop: @unchecked Sendable {
    /// Events taken from the kernel per epoll_wait.
    package static let batchSize = 64

    package struct Interest: OptionSet, Sendable {
        package let rawValue: UInt32
        package init(rawValue: UInt32) { self.rawValue = rawValue }
        package static let read = Interest(rawValue: EPOLLIN.rawValue)
        package static let write = Interest(rawValue: EPOLLOUT.rawValue)
        package static let both: Interest = [.read, .write]
    }

    /// What the kernel reported for a descriptor in one turn.
    package struct Readiness: OptionSet, Sendable {
        package let rawValue: UInt32
        package init(rawValue: UInt32) { self.rawValue = rawValue }
        package static let readable = Readiness(rawValue: EPOLLIN.rawValue)
        package static let writable = Readiness(rawValue: EPOLLOUT.rawValue)
        /// Both directions are closed (EPOLLHUP); reported whatever the interest.
        package static let hangup = Readiness(rawValue: EPOLLHUP.rawValue)
        /// The descriptor has a pending error (EPOLLERR), e.g. a refused connect; reported whatever
        /// the interest.
        package static let error = Readiness(rawValue: EPOLLERR.rawValue)
    }

    package typealias Handler = (Readiness) -> Void

    private struct Registration {
        /// Distinguishes this registration from an earlier one of the same descriptor number, so
        /// an event already fetched for a descriptor that was closed and reused in the same turn
        /// reaches no one.
        let generation: UInt32
        let handler: Handler
    }

    // epoll data values of the loop's own descriptors; user registrations put
    // generation << 32 | descriptor there, and generations stay below these.
    private static let wakeupToken = UInt64.max
    private static let timerToken = UInt64.max - 1

    private let epoll: Int32
    private let wakeup: Int32
    private let timer: Int32

    // Loop thread only.
    private var registrations: [Int32: Registration] = [:]
    private var nextGeneration: UInt32 = 0
    private var timers = TimerQueue<() -> Void>()
    private var armedDeadline: Duration?

    // Any thread, under `lock` (NSLock rather than Mutex: ThreadSanitizer understands it).
    private let lock = NSLock()
    private var queued: [@Sendable () -> Void] = []
    private var stopRequested = false
    private var loopThread: pthread_t?

    /// After events, how long the loop keeps polling before it sleeps: a thread woken by the
    /// kernel costs tens of microseconds in a VM, and a request/response exchange crosses the loop
    /// twice. Zero (the default) sleeps at once.
    let busyPoll: Duration

    package init(busyPoll: Duration = .zero) throws(EventLoopError) {
        self.busyPoll = busyPoll
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw .setupFailed(call: "epoll_create1", errno: errno) }
        wakeup = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard wakeup >= 0 else {
            let failure = errno
            Glibc.close(epoll)
            throw .setupFailed(call: "eventfd", errno: failure)
        }
        timer = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        guard timer >= 0 else {
            let failure = errno
            Glibc.close(wakeup)
            Glibc.close(epoll)
            throw .setupFailed(call: "timerfd_create", errno: failure)
        }
        for (descriptor, token) in [(wakeup, Self.wakeupToken), (timer, Self.timerToken)] {
            let failure = control(EPOLL_CTL_ADD, descriptor, events: EPOLLIN.rawValue, data: token)
            if failure != 0 {
                [timer, wakeup, epoll].forEach { _ = Glibc.close($0) }
                throw .setupFailed(call: "epoll_ctl", errno: failure)
            }
        }
    }

    deinit {
        Glibc.close(timer)
        Glibc.close(wakeup)
        Glibc.close(epoll)
    }

    // MARK: Descriptors (loop thread)

    /// Calls `handler` on the loop thread whenever `descriptor` is ready for `interest` (or in
    /// error, or hung up). The loop does not own the descriptor: unregister it before closing it.
    package func register(_ descriptor: Int32, interest: Interest, handler: @escaping Handler) throws(EventLoopError) {
        assertOnLoopThread()
        let generation = nextGeneration
        let failure = control(EPOLL_CTL_ADD, descriptor, events: interest.rawValue,
                              data: UInt64(generation) << 32 | UInt64(UInt32(bitPattern: descriptor)))
        guard failure == 0 else { throw .controlFailed(.register, descriptor: descriptor, errno: failure) }
        nextGeneration = generation == UInt32.max - 1 ? 0 : generation + 1
        registrations[descriptor] = Registration(generation: generation, handler: handler)
    }

    /// Changes what a registered descriptor is watched for, keeping its handler.
    package func modify(_ descriptor: Int32, interest: Interest) throws(EventLoopError) {
        assertOnLoopThread()
        guard let registration = registrations[descriptor] else {
            throw .controlFailed(.modify, descriptor: descriptor, errno: ENOENT)
        }
        let failure = control(EPOLL_CTL_MOD, descriptor, events: interest.rawValue,
                              data: UInt64(registration.generation) << 32 | UInt64(UInt32(bitPattern: descriptor)))
        guard failure == 0 else { throw .controlFailed(.modify, descriptor: descriptor, errno: failure) }
    }

    /// Stops watching `descriptor`; its handler is never called again, even for an event already
    /// fetched in this turn. The handler is forgotten even when the kernel refuses (EBADF after an
    /// early close), so a reused descriptor number starts clean.
    package func unregister(_ descriptor: Int32) throws(EventLoopError) {
        assertOnLoopThread()
        guard registrations.removeValue(forKey: descriptor) != nil else {
            throw .controlFailed(.unregister, descriptor: descriptor, errno: ENOENT)
        }
        let failure = control(EPOLL_CTL_DEL, descriptor, events: 0, data: 0)
        guard failure == 0 else { throw .controlFailed(.unregister, descriptor: descriptor, errno: failure) }
    }

    // MARK: Timers (loop thread)

    /// Calls `handler` on the loop thread once `delay` has passed. Timers due at the same
    /// moment fire in the order they were scheduled.
    @discardableResult
    package func schedule(after delay: Duration, _ handler: @escaping () -> Void) -> TimerID {
        assertOnLoopThread()
        return timers.schedule(at: Self.now() + delay, handler)
    }

    /// The timer will not fire. Cancelling one that already fired is allowed and does nothing.
    package func cancel(_ id: TimerID) {
        assertOnLoopThread()
        timers.cancel(id)
    }

    // MARK: Any thread

    /// Runs `work` on the loop thread, in the order queued, on the current or next turn.
    package func execute(_ work: @escaping @Sendable () -> Void) {
        lock.lock()
        queued.append(work)
        let first = queued.count == 1
        lock.unlock()
        // The loop takes the whole queue after each wakeup, so only the first closure of a batch
        // needs to wake it.
        if first { signalWakeup() }
    }

    /// Makes the current `run` return after this turn, or the next `run` after its first turn.
    /// Closures queued but not yet taken stay queued for the next `run`; registrations and timers
    /// stay as they are.
    package func stop() {
        lock.lock()
        stopRequested = true
        lock.unlock()
        signalWakeup()
    }

    /// Whether the caller is the thread inside `run`.
    package var inEventLoop: Bool {
        lock.lock()
        defer { lock.unlock() }
        return loopThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
    }

    // MARK: The loop

    /// Turns until `stop`: waits for events, calls handlers, fires due timers, runs queued work.
    package func run() throws(EventLoopError) {
        lock.lock()
        loopThread = pthread_self()
        lock.unlock()
        defer {
            lock.lock()
            loopThread = nil
            lock.unlock()
        }
        var events = [epoll_event](repeating: epoll_event(), count: Self.batchSize)
        var pollUntil = Duration.zero
        while true {
            armTimer()
            var count = events.withUnsafeMutableBufferPointer {
                epoll_wait(epoll, $0.baseAddress, Int32($0.count), busyPoll > .zero ? 0 : -1)
            }
            if busyPoll > .zero {
                if count > 0 {
                    pollUntil = Self.now() + busyPoll
                } else if count == 0 {
                    if Self.now() < pollUntil { continue }
                    count = events.withUnsafeMutableBufferPointer {
                        epoll_wait(epoll, $0.baseAddress, Int32($0.count), -1)
                    }
                    if count > 0 { pollUntil = Self.now() + busyPoll }
                }
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw .waitFailed(errno: errno)
            }
            for index in 0..<Int(count) {
                dispatch(events[index].data.u64, Readiness(rawValue: events[index].events))
            }
            if takeStopRequest() { return }
        }
    }

    private func dispatch(_ token: UInt64, _ readiness: Readiness) {
        switch token {
        case Self.wakeupToken:
            var counter: UInt64 = 0
            _ = Glibc.read(wakeup, &counter, MemoryLayout<UInt64>.size)
            lock.lock()
            let work = queued
            queued.removeAll(keepingCapacity: true)
            lock.unlock()
            work.forEach { $0() }
        case Self.timerToken:
            var expirations: UInt64 = 0
            _ = Glibc.read(timer, &expirations, MemoryLayout<UInt64>.size)
            armedDeadline = nil   // the timerfd is one-shot: it is disarmed now
            let now = Self.now()
            while let handler = timers.popDue(now: now) { handler() }
        default:
            let descriptor = Int32(bitPattern: UInt32(truncatingIfNeeded: token))
            guard let registration = registrations[descriptor],
                  registration.generation == UInt32(truncatingIfNeeded: token >> 32) else { return }
            registration.handler(readiness)
        }
    }

    /// Points the timerfd at the earliest deadline, touching it only when that changed.
    private func armTimer() {
        let next = timers.nextDeadline
        guard next != armedDeadline else { return }
        var setting = itimerspec()
        if let next {
            // An absolute time of zero would disarm; any deadline at or before now fires at once.
            setting.it_value = Self.timespec(max(next, .nanoseconds(1)))
        }
        _ = timerfd_settime(timer, Int32(TFD_TIMER_ABSTIME), &setting, nil)
        armedDeadline = next
    }

    private func takeStopRequest() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let requested = stopRequested
        stopRequested = false
        return requested
    }

    private func signalWakeup() {
        var one: UInt64 = 1
        // EAGAIN means the counter is already huge: the loop is awake anyway.
        _ = Glibc.write(wakeup, &one, MemoryLayout<UInt64>.size)
    }

    private func control(_ operation: Int32, _ descriptor: Int32, events: UInt32, data: UInt64) -> Int32 {
        var event = epoll_event()
        event.events = events
        event.data.u64 = data
        return epoll_ctl(epoll, operation, descriptor, &event) == 0 ? 0 : errno
    }

    /// Stops a debug build when called off the running loop's thread (not before `run`): the
    /// check each shell entry point that touches loop-owned state makes first. Free in release.
    package func assertOnLoopThread() {
        assert({
            lock.lock()
            defer { lock.unlock() }
            return loopThread.map { pthread_equal($0, pthread_self()) != 0 } ?? true
        }(), "event-loop state touched off the loop thread: wrap the call in execute { }")
    }

    /// CLOCK_MONOTONIC as a duration since its origin: the clock the timerfd is armed on.
    private static func now() -> Duration {
        var time = Glibc.timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    private static func timespec(_ duration: Duration) -> Glibc.timespec {
        let (seconds, attoseconds) = duration.components
        return Glibc.timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    }
}
