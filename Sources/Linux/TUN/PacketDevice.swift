import Posix
import Shared

/// Where the tunnel's IP datagrams come from and go to: a TUN device in the product, an
/// in-memory device in tests. Modelled on wireguard-go's `tun.Device`: it reads and writes
/// batches, into and out of buffers its caller owns and reuses, and has one descriptor the event
/// loop waits on, readable while datagrams are queued. Non-blocking: it never stalls the loop.
///
/// The runtime is generic over it, so the per-packet calls are direct, not dispatched (and
/// `SendableMetatype`, because the runtime's closures for the loop thread carry its type).
/// Buffers carry no headroom: nothing here prepends headers to a datagram.
package protocol PacketDevice: AnyObject, SendableMetatype {
    /// Readable while datagrams wait to be read.
    var descriptor: Int32 { get }

    /// Empties `batch` and reads into it the datagrams waiting, as many as it holds:
    /// `.processed(n)` with n ≥ 1, `.wouldBlock` when none waits, `.failed(errno)` when the
    /// first read failed (a failure after some datagrams shows on the next read).
    func read(into batch: PacketBatch) -> IOResult

    /// Writes `datagrams` in order, each whole or not at all, and says how many went; it stops at
    /// the first the device refuses (its queue full, or an error) and says why: the rest are the
    /// caller's to count as lost.
    func write(_ datagrams: some Collection<UnsafeRawBufferPointer>) -> PacketWriteResult

    /// Whether a read may hand over a datagram larger than the MTU: a TCP segment of up to 64 KiB
    /// the kernel did not cut (segmentation offload). The reader's buffers must hold one.
    var readsBeyondMTU: Bool { get }

    /// What the kernel counted on the device (`ShellStats.Device.kernel`): nil for a device the
    /// kernel does not count (an in-memory one), else its counters or why they could not be read.
    func kernelCounters() -> Result<DeviceKernelCounters, LinkStatisticsError>?
}

extension PacketDevice {
    package func kernelCounters() -> Result<DeviceKernelCounters, LinkStatisticsError>? { nil }
    package var readsBeyondMTU: Bool { false }
}
