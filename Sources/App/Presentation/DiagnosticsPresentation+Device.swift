import Shared

extension DiagnosticsPresentation {
    /// The tunnel's device: what the tunnel read from it, what the kernel dropped before it could
    /// (a flood outrunning the reader, counted by the kernel alone) and what the device refused.
    static func deviceSection(_ device: ShellStats.Device) -> DiagnosticsSection {
        let note = device.kernel.flatMap(DeviceQueueDrops.sentence).map { "Lost: " + $0 + "." }
            ?? device.kernelProblem.map { "It is " + DeviceQueueDrops.unknown($0) + "." }
        return section("device", "The tunnel's device", note: note) { rows in
            if let kernel = device.kernel {
                rows.count("datagramsRead", "datagrams the tunnel read from it", kernel.datagramsRead)
                rows.count("queueDrops", "datagrams the kernel dropped before the tunnel read them", kernel.queueDrops)
            } else {
                rows.add("queueDrops", "datagrams the kernel dropped before the tunnel read them", "not known")
            }
            rows.count("writeDrops", "datagrams it refused from the tunnel", device.writeDropCount)
            rows.count("readFailures", "reads that failed", device.readFailureCount)
        }
    }
}
