#if canImport(Glibc)
import Glibc
#endif

/// Wall-clock intervals on CLOCK_MONOTONIC, which no clock adjustment moves.
struct Stopwatch {
    private let start = Stopwatch.now()

    var elapsedSeconds: Double { Double(Stopwatch.now() - start) / 1e9 }

    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}
