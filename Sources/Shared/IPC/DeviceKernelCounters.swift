/// What the kernel counted on the TUN device — its own statistics, as `ip -s link` shows them in
/// the device's namespace — read when the stats are asked, never per packet. They say what no
/// counter of the tunnel's can: a datagram the kernel could not queue to the tunnel's reader is
/// dropped before the tunnel ever sees it (an unpaced flood outruns the reader), so it is in no
/// capture, no history, and never left the machine.
package struct DeviceKernelCounters: Codable, Sendable, Equatable {
    /// Datagrams the monitored side sent into the device that the kernel dropped because its
    /// queue to the tunnel was full (the device's `tx_dropped`, counted by the TUN driver when
    /// its ring is full).
    package var queueDrops: UInt64
    /// Datagrams the tunnel read from the device (its `tx_packets`: a TUN counts a datagram as
    /// transmitted when its reader takes it).
    package var datagramsRead: UInt64

    package init(queueDrops: UInt64, datagramsRead: UInt64) {
        self.queueDrops = queueDrops
        self.datagramsRead = datagramsRead
    }

    /// The share of what the monitored side sent that the kernel dropped, 0…1; nil before anything was sent.
    package var dropShare: Double? {
        let sent = queueDrops + datagramsRead
        return sent == 0 ? nil : Double(queueDrops) / Double(sent)
    }
}
