import Shared

/// The packet clock the pipeline stamps with: monotonic nanoseconds, the same clock as
/// `MonotonicAnchor`. Injected, so cores and their tests never read the time themselves.
public protocol MonotonicClock: Sendable {
    func nanoseconds() -> UInt64
}

/// The machine's monotonic clock (`CLOCK_MONOTONIC`, read where `MonotonicAnchor` reads it).
public struct SystemMonotonicClock: MonotonicClock {
    public init() {}
    public func nanoseconds() -> UInt64 { MonotonicAnchor.uptimeNow() }
}
