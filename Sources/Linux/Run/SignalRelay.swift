#if canImport(Glibc)
import Glibc
#endif

/// Which signals `run` passes on to the monitored command, and when. CMD stays in run's process
/// group, so what the terminal sends (Ctrl-C, Ctrl-\, Ctrl-Z, a hangup, a resize) reaches it
/// straight from the kernel; only what a *process* sent to run alone is relayed — never what the
/// kernel sent, or CMD would get a Ctrl-C twice. Job-control signals are not here: they stay at
/// their default in run, so Ctrl-Z stops the whole group and `fg` continues it.
package enum SignalRelay {
    /// The signals run catches and may relay.
    package static let relayed: [Int32] = [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM]

    /// `si_code` values at or below zero are a process's (SI_USER from kill, SI_QUEUE, SI_TKILL
    /// from tgkill…); positive ones are the kernel's (SI_KERNEL for the terminal's signals).
    package static func relays(code: Int32) -> Bool { code <= 0 }
}
