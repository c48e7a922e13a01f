/// The init's bookkeeping that keeps a relayed signal from reaching CMD twice. The init shares
/// run's process group, so a signal a process sent to the whole group (`kill -TERM -PGID`,
/// `timeout` with `--foreground` off, a service manager) reaches run, the init and CMD at once;
/// run relays it too, since it cannot tell a group signal from one sent to it alone. The init
/// counts the process-sent signals it received itself, and on a relay request consumes one of
/// them instead of forwarding: CMD already had that one.
///
/// Post-fork code cannot run Swift, so Sources/CTunnelVision/spawn.c (`drain` and the relay
/// branch of `init_main`) mirrors this value rule for rule; change both together.
package struct GroupSignalLedger: Sendable, Equatable {
    package enum Decision: Sendable, Equatable {
        /// kill() CMD with the signal.
        case forward
        /// CMD received it from the group already.
        case alreadyDelivered
    }

    private var seen: [Int32: Int] = [:]

    package init() {}

    /// A signal the init received; counted only when a process sent it (SignalRelay.relays).
    package mutating func received(_ signal: Int32, code: Int32) {
        guard SignalRelay.relays(code: code) else { return }
        seen[signal, default: 0] += 1
    }

    /// Run asks to relay `signal`, after the init read all it had received.
    package mutating func relayRequested(_ signal: Int32) -> Decision {
        guard let count = seen[signal], count > 0 else { return .forward }
        seen[signal] = count - 1
        return .alreadyDelivered
    }
}
