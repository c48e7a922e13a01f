/// What the packet pipeline recorded this session. Every drop has a counter, so the diagnostics
/// can explain it. Only what this build measures is here: the groups a feature fills that does
/// not exist yet (`plaintext`, `retention`) are nil until it does, and then absent from the JSON.
package struct PipelineStats: Codable, Sendable, Equatable {
    /// Datagrams read from the TUN device and handled.
    package var packetsHandled: UInt64
    /// Bytes of those datagrams, as read.
    package var bytesHandled: UInt64
    /// Datagrams dropped because they did not parse as IPv4 or IPv6, by reason.
    package var parseDrops: ParseDropStats
    /// Datagrams dropped because neither address was the tunnel's, so their direction is unknown.
    package var packetsDroppedNoLocalAddress: UInt64
    /// Datagrams written to the capture.
    package var packetsCaptured: UInt64
    /// Capture writes that failed.
    package var captureFailures: UInt64
    /// Capture was turned off by a failure (a full disk, say) until it is enabled again.
    package var captureDisabledByFailure: Bool
    /// The last capture failure, as the person should read it.
    package var lastCaptureError: String?
    /// Packet records published to the live feed's ring.
    package var packetsPublished: UInt64
    /// Records the live feed's ring dropped because its reader fell behind.
    package var liveFeedDrops: UInt64
    /// Batches written to the history.
    package var storeBatchesWritten: UInt64
    /// Batches the history failed to write.
    package var storeBatchesFailed: UInt64
    /// Packets whose history rows were lost with those failed batches.
    package var packetsLostToStoreFailures: UInt64
    /// The last history failure, as the person should read it.
    package var lastStoreError: String?
    /// A capture or history write found the data directory's disk full: that recording stopped,
    /// the tunnel did not.
    package var diskFull: Bool
    /// Flows that began.
    package var flowsOpened: UInt64
    /// Flows that ended (FIN, RST).
    package var flowsClosed: UInt64
    /// Flows that went idle past their timeout.
    package var flowsExpired: UInt64
    /// Flows a full flow table gave up to make room: only ones idle past their timeout (or, offline,
    /// the least recently used); a live connection is never one of them.
    package var flowsEvicted: UInt64
    /// Flows refused at their opening because the flow table was full of live ones: a TCP SYN
    /// answered with RST, a UDP datagram dropped.
    package var flowsRefusedAtCapacity: UInt64
    /// Datagrams the relay wrote back into the tunnel that were recorded.
    package var reinjectedRecorded: UInt64
    /// QUIC long headers whose version was noted.
    package var quicVersionsObserved: UInt64
    /// Keeping decrypted content; nil while this build keeps none.
    package var plaintext: PlaintextStats?
    /// Retention's sweeps when the capture rotates; nil while this build sweeps nothing.
    package var retention: RetentionStats?
    /// Naming flows from DNS answers.
    package var dnsNames: DNSNameStats
    /// Naming QUIC flows from their Initial packets.
    package var quicNames: QUICNameStats

    package init(packetsHandled: UInt64 = 0, bytesHandled: UInt64 = 0, parseDrops: ParseDropStats = .zero,
                packetsDroppedNoLocalAddress: UInt64 = 0, packetsCaptured: UInt64 = 0, captureFailures: UInt64 = 0,
                captureDisabledByFailure: Bool = false, lastCaptureError: String? = nil, packetsPublished: UInt64 = 0,
                liveFeedDrops: UInt64 = 0, storeBatchesWritten: UInt64 = 0, storeBatchesFailed: UInt64 = 0,
                packetsLostToStoreFailures: UInt64 = 0, lastStoreError: String? = nil, diskFull: Bool = false,
                flowsOpened: UInt64 = 0, flowsClosed: UInt64 = 0, flowsExpired: UInt64 = 0, flowsEvicted: UInt64 = 0,
                flowsRefusedAtCapacity: UInt64 = 0,
                reinjectedRecorded: UInt64 = 0, quicVersionsObserved: UInt64 = 0, plaintext: PlaintextStats? = nil,
                retention: RetentionStats? = nil, dnsNames: DNSNameStats = .zero, quicNames: QUICNameStats = .zero) {
        self.packetsHandled = packetsHandled
        self.bytesHandled = bytesHandled
        self.parseDrops = parseDrops
        self.packetsDroppedNoLocalAddress = packetsDroppedNoLocalAddress
        self.packetsCaptured = packetsCaptured
        self.captureFailures = captureFailures
        self.captureDisabledByFailure = captureDisabledByFailure
        self.lastCaptureError = lastCaptureError
        self.packetsPublished = packetsPublished
        self.liveFeedDrops = liveFeedDrops
        self.storeBatchesWritten = storeBatchesWritten
        self.storeBatchesFailed = storeBatchesFailed
        self.packetsLostToStoreFailures = packetsLostToStoreFailures
        self.lastStoreError = lastStoreError
        self.diskFull = diskFull
        self.flowsOpened = flowsOpened
        self.flowsClosed = flowsClosed
        self.flowsExpired = flowsExpired
        self.flowsEvicted = flowsEvicted
        self.flowsRefusedAtCapacity = flowsRefusedAtCapacity
        self.reinjectedRecorded = reinjectedRecorded
        self.quicVersionsObserved = quicVersionsObserved
        self.plaintext = plaintext
        self.retention = retention
        self.dnsNames = dnsNames
        self.quicNames = quicNames
    }

    /// Datagrams dropped because they did not parse, whatever the reason.
    package var packetsDroppedUnparseable: UInt64 { parseDrops.total }

    /// Nothing handled yet.
    package static let zero = PipelineStats()
}
