import CTunnelVision
import Posix

/// How the process's heap gives memory back. The tunnel allocates and frees a 64 KiB chunk per
/// segment read from a server, in steady waves; glibc's defaults (return anything over 128 KiB at
/// the top of the heap) turn each wave into fresh zeroed pages. Keeping the heap cuts those page
/// faults (by a tenth in `analyze`, measured).
package enum HeapPolicy {
    /// Keep what the heap grew to; call once, at start.
    package static func keepGrowth() { ctv_keep_heap_growth() }

    /// For a process that monitors for hours (`run`, `up`): every thread allocates from one
    /// arena. glibc gives each busy thread an arena of its own, and gives back the free top of
    /// those only past the trim threshold `keepGrowth` raises, which `giveBack` does not lower:
    /// measured, a passive service holding 1 000 flows after a burst of 129 000 kept 31 MB of
    /// anonymous memory with 9.5 MB in use over seven arenas (smaps, malloc_stats); with one
    /// arena, 10 MB. Not for `analyze`, whose workers allocate in parallel. Call before other
    /// threads start.
    package static func useOneArena() { ctv_use_one_heap_arena() }

    /// How often a running tunnel gives back what a burst left: kept growth spares the page faults
    /// of steady waves, but a service that runs for weeks must not hold a burst's high water for
    /// ever (measured: a routed service held 68.6 MB with 1 000 flows open after its throughput
    /// runs; `tvlab bench tunnel`).
    package static let giveBackInterval: Duration = .seconds(10)

    /// Returns the heap's free pages to the system (a few milliseconds for a large heap; off the
    /// packet path, between ticks).
    static func giveBack() { ctv_give_heap_back() }

    /// Gives back every `giveBackInterval` on `loop`'s thread, for as long as the loop runs: first
    /// what `release` frees (the room of tables a burst grew), then the heap's free pages.
    static func giveBackPeriodically(on loop: EventLoop, releasing release: @escaping () -> Void = {}) {
        _ = loop.schedule(after: giveBackInterval) { [weak loop] in
            release()
            giveBack()
            if let loop { giveBackPeriodically(on: loop, releasing: release) }
        }
    }
}
