#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// One reading of the monotonic clock taken next to the wall clock, so monotonic packet stamps can
/// be turned into dates. Taken once per session: that keeps the spacing between packets exact.
///
/// On Linux the monotonic clock is `CLOCK_MONOTONIC`, which, like iOS's `CLOCK_UPTIME_RAW`, stops
/// while the machine is suspended and is the same clock in every process.
package struct MonotonicAnchor: Sendable, Equatable, Codable {
    package let uptimeNanoseconds: UInt64
    /// The wall clock at the same instant, in nanoseconds since 1970 (the source of truth;
    /// `wallClock` is derived, because `Date` cannot hold nanoseconds exactly).
    package let wallClockNanosecondsSince1970: Int64

    package init(uptimeNanoseconds: UInt64, wallClockNanosecondsSince1970: Int64) {
        self.uptimeNanoseconds = uptimeNanoseconds
        self.wallClockNanosecondsSince1970 = wallClockNanosecondsSince1970
    }

    package static func now() -> MonotonicAnchor {
        MonotonicAnchor(uptimeNanoseconds: MonotonicAnchor.uptimeNow(),
                        wallClockNanosecondsSince1970: Self.read(CLOCK_REALTIME))
    }

    /// The monotonic clock now, in nanoseconds: the clock every `PacketMeta.timestamp` uses.
    package static func uptimeNow() -> UInt64 { UInt64(read(CLOCK_MONOTONIC)) }

    package var wallClock: Date { Date(timeIntervalSince1970: Double(wallClockNanosecondsSince1970) / 1e9) }

    /// Nanoseconds since 1970 for a monotonic instant (earlier instants count backwards).
    package func nanosecondsSince1970(forUptime nanoseconds: UInt64) -> Int64 {
        if nanoseconds >= uptimeNanoseconds {
            let (sum, overflow) = wallClockNanosecondsSince1970.addingReportingOverflow(
                Int64(clamping: nanoseconds - uptimeNanoseconds))
            return overflow ? .max : sum
        }
        let (difference, overflow) = wallClockNanosecondsSince1970.subtractingReportingOverflow(
            Int64(clamping: uptimeNanoseconds - nanoseconds))
        return overflow ? .min : difference
    }

    /// The monotonic instant of a wall-clock time (a kernel's packet timestamp), the inverse of
    /// `nanosecondsSince1970(forUptime:)`; 0 for a time before the machine started.
    package func uptime(forNanosecondsSince1970 wallClock: Int64) -> UInt64 {
        let (offset, overflow) = wallClock.subtractingReportingOverflow(wallClockNanosecondsSince1970)
        if overflow { return wallClock < wallClockNanosecondsSince1970 ? 0 : .max }
        if offset >= 0 {
            let (sum, over) = uptimeNanoseconds.addingReportingOverflow(UInt64(offset))
            return over ? .max : sum
        }
        let back = offset.magnitude
        return back > uptimeNanoseconds ? 0 : uptimeNanoseconds - back
    }

    package func date(forUptime nanoseconds: UInt64) -> Date {
        Date(timeIntervalSince1970: Double(nanosecondsSince1970(forUptime: nanoseconds)) / 1e9)
    }

    private static func read(_ clock: clockid_t) -> Int64 {
        var spec = timespec()
        clock_gettime(clock, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }
}
