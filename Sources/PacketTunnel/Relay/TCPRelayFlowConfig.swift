import Shared

extension TCPRelayFlow {
    /// The flow's limits. Every buffer the flow holds has its ceiling here, and reaching one is a
    /// defined degradation, never growth: back-pressure, a dropped segment the device resends, or
    /// (for a shell that ignores `pauseServerReads`) a reset.
    package struct Config: Sendable, Equatable {
        /// The MSS announced on the SYN-ACK, and the most the flow puts in one segment to the
        /// device: the tunnel's MTU less the IP and TCP headers (`segmentSize(mtu:version:)`).
        package var maximumSegmentSize: UInt16
        /// Device bytes handed to the server but not yet taken by its socket. The window the flow
        /// advertises is what is left of it — scaled (RFC 7323) when the device offers scaling,
        /// else at most 65 535.
        package var maxToServerBytes: Int
        /// Server bytes held for the device: sent and unacknowledged, plus not yet sent.
        package var maxToDeviceBytes: Int
        /// Device bytes held ahead of a gap; a segment that would exceed either cap is dropped
        /// and left to the device's retransmission.
        package var maxOutOfOrderBytes: Int
        package var maxOutOfOrderSegments: Int
        /// The first retransmission timeout (RFC 6298 §2.1 says 1 s without an RTT sample); each
        /// timeout in a row doubles it (§5.5), up to `maxRetransmitTimeout`.
        package var initialRetransmitTimeout: Duration
        package var maxRetransmitTimeout: Duration
        /// Timeouts in a row after which the flow gives up: RST to the device, teardown.
        package var maxRetransmits: Int
        /// Whether the device cuts long segments and completes checksums itself (a TUN with the
        /// vnet header): then the flow sends up to `largestOffloadedPayload` bytes at once.
        package var segmentationOffload = false

        /// The most payload one offloaded segment carries: what 64 KiB holds after either
        /// family's IP header and TCP's.
        package static let largestOffloadedPayload = Int(UInt16.max) - 40 - 20

        package init(maximumSegmentSize: UInt16 = 1460,
                     maxToServerBytes: Int = 1024 * 1024, maxToDeviceBytes: Int = 1024 * 1024,
                     maxOutOfOrderBytes: Int = 256 * 1024, maxOutOfOrderSegments: Int = 64,
                     initialRetransmitTimeout: Duration = .seconds(1), maxRetransmitTimeout: Duration = .seconds(60),
                     maxRetransmits: Int = 8) {
            self.maximumSegmentSize = maximumSegmentSize
            self.maxToServerBytes = maxToServerBytes
            self.maxToDeviceBytes = maxToDeviceBytes
            self.maxOutOfOrderBytes = maxOutOfOrderBytes
            self.maxOutOfOrderSegments = maxOutOfOrderSegments
            self.initialRetransmitTimeout = initialRetransmitTimeout
            self.maxRetransmitTimeout = maxRetransmitTimeout
            self.maxRetransmits = maxRetransmits
        }

        /// The shift the flow announces for its own window when the device offers scaling: the
        /// smallest that lets the 16-bit field say `maxToServerBytes` (RFC 7323 §2.3 caps it at 14).
        var receiveWindowShift: Int {
            var shift = 0
            while shift < 14 && (maxToServerBytes >> shift) > Int(UInt16.max) { shift += 1 }
            return shift
        }

        /// The MSS that fills an MTU: less 20 bytes of IPv4 or 40 of IPv6, and 20 of TCP
        /// (RFC 9293 §3.7.1). 1460 and 1440 for the tunnel's MTU of 1500.
        package static func segmentSize(mtu: Int, version: IPVersion) -> UInt16 {
            UInt16(clamping: mtu - (version == .v4 ? 40 : 60))
        }

        /// The MSS assumed when the device's SYN carries none (RFC 9293 §3.7.1: 536 for IPv4;
        /// RFC 8200 §5's minimum MTU of 1280 less 60 for IPv6).
        package static func defaultDeviceSegmentSize(_ version: IPVersion) -> UInt16 {
            version == .v4 ? 536 : 1220
        }
    }
}
