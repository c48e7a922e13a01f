#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Ctrl-C (SIGINT, and SIGTERM and SIGHUP) while `up` waits for the service it starts in the
/// background: counted by a handler in place as soon as `watch` returns — a dispatch signal source
/// is registered by another thread a moment later, and a signal in that moment was lost (seen in
/// `UpServiceTests`). The first says the start will be undone once it has gone either way; a
/// second leaves at once, saying what may still be starting. The handler only counts, writes and
/// exits: nothing else is safe in a signal handler.
enum StartInterrupts {
    static let signals = [SIGINT, SIGTERM, SIGHUP]
    /// 128 + SIGINT, as a shell reports a command Ctrl-C ended.
    static let status: Int32 = 128 + SIGINT
    fileprivate static let count = Atomic<Int>(0)
    fileprivate static let undoing = Array(("tunnelvision: up: interrupted: the service will be stopped as soon as its start has "
                                            + "gone either way (Ctrl-C again to leave it starting)\n").utf8)
    fileprivate static let leaving = Array(("tunnelvision: up: left the service starting: 'tunnelvision status' shows it, "
                                            + "'tunnelvision down' stops it\n").utf8)

    /// From now on, these signals are counted rather than ending the process.
    static func watch() {
        // Made before the handler can run: a first use initialises them, which is not safe there.
        _ = count.load(ordering: .relaxed)
        _ = (undoing.count, leaving.count)
        for number in signals { signal(number, countInterrupt) }
    }

    /// The signals end the process again, as by default.
    static func stopWatching() {
        for number in signals { signal(number, SIG_DFL) }
    }

    /// Whether one came since `watch`.
    static var interrupted: Bool { count.load(ordering: .relaxed) > 0 }
}

private func countInterrupt(_: Int32) {
    let first = StartInterrupts.count.add(1, ordering: .relaxed).newValue == 1
    (first ? StartInterrupts.undoing : StartInterrupts.leaving).withUnsafeBufferPointer { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    if !first { _exit(StartInterrupts.status) }
}
