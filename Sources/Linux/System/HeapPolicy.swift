import CTunnelVision
import Posix

/// How the process's heap gives memory back. The tunnel allocates and frees a 64 KiB chunk per
/// segment read from a server, in steady waves; glibc's defaults (return anything over 128 KiB at
/// the top of the heap) turn each wave into fresh zeroed pages. Keeping the heap cuts those page
/// faults (by a tenth in `analyze`, measured).
public enum HeapPolicy {
    /// Keep what the heap grew to; call once, at start.
    public static func keepGrowth() { ctv_keep_heap_growth() }

    /// How often a running tunnel gives back what a burst left: kept growth spares the page faults
    /// of steady waves, but a service that runs for weeks must not hold a burst's high water for
    /// ever (measured: a routed service held 68.6 MB with 1 000 flows open after its throughput
    /// runs; `tvlab bench tunnel`).
    public static let giveBackInterval: Duration = .seconds(10)

    /// Returns the heap's free pages to the system (a few milliseconds for a large heap; off the
    /// packet path, between ticks).
    public static func giveBack() { ctv_give_heap_back() }

    /// Gives back every `giveBackInterval` on `loop`'s thread, for as long as the loop runs.
    package static func giveBackPeriodically(on loop: EventLoop) {
        _ = loop.schedule(after: giveBackInterval) { [weak loop] in
            giveBack()
            if let loop { giveBackPeriodically(on: loop) }
        }
    }
}
