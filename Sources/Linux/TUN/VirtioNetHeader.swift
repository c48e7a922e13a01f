import PacketTunnel
import Shared

/// The 10-byte header (`struct virtio_net_hdr`, virtio spec 1.2 §5.1.6) before every datagram on a
/// TUN attached with IFF_VNET_HDR: whether the kernel handed over — or is asked to cut — a TCP
/// segment larger than the MTU, and whether the transport checksum is left partial (the
/// pseudo-header's sum only, for whoever delivers it to complete). Fields are little-endian: a
/// TUN's header follows the machine's byte order unless TUNSETVNETLE says otherwise, and every
/// machine this runs on is little-endian.
package struct VirtioNetHeader: Sendable, Equatable {
    package static let byteCount = 10

    /// How the datagram is to be cut into segments of `segmentSize` (VIRTIO_NET_HDR_GSO_*).
    package enum Segmentation: UInt8, Sendable, Equatable {
        case none = 0
        case tcpIPv4 = 1
        case udp = 3
        case tcpIPv6 = 4
        case udpL4 = 5
    }

    /// VIRTIO_NET_HDR_F_NEEDS_CSUM: the checksum at `checksumStart + checksumOffset` covers the
    /// pseudo-header only; the rest, from `checksumStart`, is still to be summed.
    package var needsChecksum = false
    package var segmentation = Segmentation.none
    /// VIRTIO_NET_HDR_GSO_ECN: the segments carry CWR on the first only.
    package var explicitCongestion = false
    /// The IP and TCP headers' length: what each segment repeats.
    package var headerLength: UInt16 = 0
    /// The payload of each segment but the last (the flow's MSS toward the device).
    package var segmentSize: UInt16 = 0
    package var checksumStart: UInt16 = 0
    package var checksumOffset: UInt16 = 0

    package init() {}

    /// A whole datagram, its checksums complete: what every write without offloads carries.
    package static let plain = VirtioNetHeader()

    /// A TCP segment whose checksum holds the pseudo-header's sum only, for the kernel to
    /// complete — and, given `segmentSize`, of any length up to 64 KiB for it to cut into
    /// segments of that many payload bytes.
    package static func tcp(version: IPVersion, ipHeaderLength: Int, tcpHeaderLength: Int, segmentSize: Int?) -> VirtioNetHeader {
        var header = VirtioNetHeader()
        header.needsChecksum = true
        header.checksumStart = UInt16(ipHeaderLength)
        header.checksumOffset = 16   // TCP's checksum field (RFC 9293 §3.1)
        if let segmentSize {
            header.segmentation = version == .v4 ? .tcpIPv4 : .tcpIPv6
            header.headerLength = UInt16(ipHeaderLength + tcpHeaderLength)
            header.segmentSize = UInt16(segmentSize)
        }
        return header
    }

    /// What the relay asked of the device for one of its segments.
    package init(_ offload: DeviceOffload) {
        self = .tcp(version: offload.version, ipHeaderLength: offload.ipHeaderLength, tcpHeaderLength: offload.tcpHeaderLength,
                    segmentSize: offload.segmentSize)
    }

    /// The header at the start of `bytes`, or nil when there are fewer than ten bytes or the
    /// segmentation is none the kernel defines.
    package init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= Self.byteCount, let segmentation = Segmentation(rawValue: bytes[1] & 0x7F) else { return nil }
        func word(_ offset: Int) -> UInt16 { UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8 }
        needsChecksum = bytes[0] & 0x01 != 0
        self.segmentation = segmentation
        explicitCongestion = bytes[1] & 0x80 != 0
        headerLength = word(2)
        segmentSize = word(4)
        checksumStart = word(6)
        checksumOffset = word(8)
    }

    /// Writes the ten bytes at the start of `bytes`, which holds at least that many.
    package func store(to bytes: UnsafeMutableRawBufferPointer) {
        precondition(bytes.count >= Self.byteCount, "a virtio_net_hdr is ten bytes")
        func word(_ value: UInt16, at offset: Int) {
            bytes[offset] = UInt8(truncatingIfNeeded: value)
            bytes[offset + 1] = UInt8(truncatingIfNeeded: value >> 8)
        }
        bytes[0] = needsChecksum ? 0x01 : 0
        bytes[1] = segmentation.rawValue | (explicitCongestion ? 0x80 : 0)
        word(headerLength, at: 2)
        word(segmentSize, at: 4)
        word(checksumStart, at: 6)
        word(checksumOffset, at: 8)
    }
}
