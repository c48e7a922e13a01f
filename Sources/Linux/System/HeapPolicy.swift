import CTunnelVision

/// How the process's heap gives memory back. The tunnel allocates and frees a 64 KiB chunk per
/// segment read from a server, in steady waves; glibc's defaults (return anything over 128 KiB at
/// the top of the heap) turn each wave into fresh zeroed pages. Keeping the heap cuts those page
/// faults (by a tenth in `analyze`, measured).
public enum HeapPolicy {
    /// Keep what the heap grew to; call once, at start.
    public static func keepGrowth() { ctv_keep_heap_growth() }
}
