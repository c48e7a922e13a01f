import Shared

/// What the kernel dropped at the TUN device before the tunnel read it (`DeviceKernelCounters`),
/// in the one sentence the run summary, `stats` and the diagnostics screen share: losses nobody
/// else counts — the datagrams never left the machine and are in no capture or history.
enum DeviceQueueDrops {
    /// "the kernel dropped 36790 of the 80000 datagrams sent into the tunnel (46.0 %) …"; nil when
    /// it dropped none.
    static func sentence(_ counters: DeviceKernelCounters) -> String? {
        guard counters.queueDrops > 0 else { return nil }
        let share = counters.dropShare.map { String(format: " (%.1f %%)", $0 * 100) } ?? ""
        return "the kernel dropped \(counters.queueDrops) of the \(counters.queueDrops + counters.datagramsRead) datagrams "
            + "sent into the tunnel\(share) before the tunnel could read them: they came faster than it read (the TUN "
            + "device's queue was full), never left the machine and are in no capture or history"
    }

    /// What is said when the counts could not be read: never a silent zero.
    static func unknown(_ problem: String) -> String {
        "not known whether the kernel dropped datagrams before the tunnel read them: \(problem)"
    }
}
