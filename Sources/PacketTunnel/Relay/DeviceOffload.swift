import Shared

/// What the relay leaves the device to finish for one TCP segment it writes, when the device
/// offloads segmentation and checksums (`TCPRelayFlow.Config.segmentationOffload`): the TCP
/// checksum, left as the pseudo-header's sum — and, for a segment longer than the flow's MSS
/// toward the device, cutting it into segments of that MSS (the kernel does both, as for a
/// virtio NIC: one write and one pass of the relay for up to 64 KiB).
package struct DeviceOffload: Sendable, Equatable {
    package let version: IPVersion
    package let tcpHeaderLength: Int
    /// The payload of each segment the device cuts; nil for a segment it sends whole.
    package let segmentSize: Int?

    package init(version: IPVersion, tcpHeaderLength: Int, segmentSize: Int?) {
        self.version = version
        self.tcpHeaderLength = tcpHeaderLength
        self.segmentSize = segmentSize
    }

    /// Where the TCP header, and so the checksum's sum, starts: the emitter's IP header.
    package var ipHeaderLength: Int { PacketEmitter.ipHeaderLength(version) }
}
