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

    /// Whether the device offloads segmentation and checksums (`VirtioNetHeader`): a read may
    /// hand over a TCP segment of up to 64 KiB the kernel did not cut, its checksum partial (the
    /// reader's buffers must hold one), and a write may pass one for the kernel to cut.
    var segmentationOffload: Bool { get }

    /// Writes one datagram with what the device is to finish (`header`: only on a device with
    /// segmentation offload; a plain header on any other).
    func write(_ datagram: UnsafeRawBufferPointer, header: VirtioNetHeader) -> PacketWriteResult

    /// What the kernel counted on the device (`ShellStats.Device.kernel`): nil for a device the
    /// kernel does not count (an in-memory one), else its counters or why they could not be read.
    func kernelCounters() -> Result<DeviceKernelCounters, LinkStatisticsError>?
}

extension PacketDevice {
    package func kernelCounters() -> Result<DeviceKernelCounters, LinkStatisticsError>? { nil }
    package var segmentationOffload: Bool { false }

    package func write(_ datagram: UnsafeRawBufferPointer, header: VirtioNetHeader) -> PacketWriteResult {
        precondition(header == .plain, "a device without segmentation offload has nothing to finish")
        return write(CollectionOfOne(datagram))
    }
}
