#if canImport(Glibc)
import Glibc
#endif
import Posix
import Shared

/// Whether the TUN device's failures pass or are for good, decided from each read's and write's
/// answer with no I/O: every failure is counted (`counts`), and one that cannot clear stops the
/// tunnel with its reason — rather than the level-triggered loop retrying it on every turn at
/// full CPU, or a hang-up being taken for "no more packets".
///
/// The rules:
/// - EBADFD, EBADF, ENODEV, ENXIO: the interface was deleted (`ip link del`) or its descriptor
///   closed. Nothing brings it back: stop at once.
/// - A descriptor the loop reports hung up or in error, with nothing to read: the same (a TUN
///   reports an error only once its interface is gone), and it would be reported on every turn.
/// - EAGAIN on a write is the device's queue full, ENOBUFS and ENOMEM the kernel short of memory
///   for a moment: the datagram is lost, as on a wire, and counted; never fatal.
/// - Any other error, the same errno `persistentAfter` times in a row with nothing read (or
///   written) in between: it is not clearing, stop with it. A success ends the run.
package struct DeviceHealth: Equatable {
    /// Failures of one errno in a row that make it persistent. A passing error clears on the next
    /// call or a few later; the loop retries a failing read on every turn, some microseconds
    /// apart, so a hundred in a row is an error that has not cleared for a while — and stopping
    /// costs at most a millisecond of spinning before the reason is known.
    package static let persistentAfter = 100

    package enum Verdict: Equatable {
        /// Go on (a failure among them is counted already).
        case carryOn
        /// The device cannot go on: stop the tunnel with this reason.
        case stop(TunnelFailure)
    }

    /// Every failure so far, by errno.
    package private(set) var counts = ShellStats.Device()
    private var readStreak = Streak()
    private var writeStreak = Streak()

    package init() {}

    /// The answer of a read, made because the loop reported the descriptor as `readiness`.
    package mutating func read(_ result: IOResult, readiness: EventLoop.Readiness) -> Verdict {
        switch result {
        case .processed:
            readStreak = Streak()
            return .carryOn
        case .wouldBlock:
            let trouble = readiness.contains(.hangup) || readiness.contains(.error)
            return trouble ? .stop(.deviceGone(errno: nil)) : .carryOn
        case .failed(let code):
            counts.readFailures[SystemError.name(code), default: 0] += 1
            if Self.isFinal(code) { return .stop(.deviceGone(errno: code)) }
            if Self.isPassing(code) { return .carryOn }
            let times = readStreak.add(code)
            return times >= Self.persistentAfter ? .stop(.deviceReadFailed(errno: code, times: times)) : .carryOn
        }
    }

    /// The refusal of a write (`PacketWriteResult.refusal`), nil when every datagram went; each
    /// datagram refused is one `lost`.
    package mutating func wrote(refusal: IOResult?, lost: Int = 1) -> Verdict {
        switch refusal {
        case nil, .processed:
            writeStreak = Streak()
            return .carryOn
        case .wouldBlock:
            counts.writeDrops[SystemError.name(EAGAIN), default: 0] += UInt64(lost)
            return .carryOn
        case .failed(let code):
            counts.writeDrops[SystemError.name(code), default: 0] += UInt64(lost)
            if Self.isFinal(code) { return .stop(.deviceGone(errno: code)) }
            if Self.isPassing(code) { return .carryOn }
            let times = writeStreak.add(code)
            return times >= Self.persistentAfter ? .stop(.deviceWriteFailed(errno: code, times: times)) : .carryOn
        }
    }

    /// The device is gone: no later call can succeed.
    static func isFinal(_ code: Int32) -> Bool { [EBADFD, EBADF, ENODEV, ENXIO].contains(code) }

    /// Short of buffers for a moment: lost and counted, never a reason to stop.
    static func isPassing(_ code: Int32) -> Bool { [ENOBUFS, ENOMEM, EAGAIN, EINTR].contains(code) }

    /// One errno's failures in a row; another errno starts a new run.
    private struct Streak: Equatable {
        var code: Int32 = 0
        var times = 0

        /// The length of the run `code` is now part of.
        mutating func add(_ code: Int32) -> Int {
            times = code == self.code ? times + 1 : 1
            self.code = code
            return times
        }
    }
}
