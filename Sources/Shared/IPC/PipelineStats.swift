/// What the packet pipeline recorded this session, plus the three retention counters the runtime
/// lays over it when answering `.stats` (a sweep that fails with nobody watching has nowhere else
/// to be counted). Every drop has a counter, so the diagnostics can explain it.
public struct PipelineStats: Codable, Sendable, Equatable {
    /// Datagrams read from the TUN device and handled.
    public var packetsHandled: UInt64
    /// Bytes of those datagrams, as read.
    public var bytesHandled: UInt64
    /// Datagrams dropped because they did not parse as IPv4 or IPv6.
    public var packetsDroppedUnparseable: UInt64
    /// Datagrams dropped because neither address was the tunnel's, so their direction is unknown.
    public var packetsDroppedNoLocalAddress: UInt64
    /// Datagrams written to the capture.
    public var packetsCaptured: UInt64
    /// Capture writes that failed.
    public var captureFailures: UInt64
    /// Capture was turned off by a failure (a full disk, say) until it is enabled again.
    public var captureDisabledByFailure: Bool
    /// The last capture failure, as the person should read it.
    public var lastCaptureError: String?
    /// Packet records published to the live feed's ring.
    public var packetsPublished: UInt64
    /// Records the live feed's ring dropped because its reader fell behind.
    public var liveFeedDrops: UInt64
    /// Batches written to the history.
    public var storeBatchesWritten: UInt64
    /// Batches the history failed to write.
    public var storeBatchesFailed: UInt64
    /// Packets whose history rows were lost with those failed batches.
    public var packetsLostToStoreFailures: UInt64
    /// The last history failure, as the person should read it.
    public var lastStoreError: String?
    /// Flows that began.
    public var flowsOpened: UInt64
    /// Flows that ended (FIN, RST).
    public var flowsClosed: UInt64
    /// Flows that went idle past their timeout.
    public var flowsExpired: UInt64
    /// Flows pushed out of a full flow table.
    public var flowsEvicted: UInt64
    /// Datagrams the relay wrote back into the tunnel that were recorded.
    public var reinjectedRecorded: UInt64
    /// Records of written-back datagrams dropped from their full queue (the datagram itself was sent).
    public var reinjectedRecordsDropped: UInt64
    /// QUIC long headers whose version was noted.
    public var quicVersionsObserved: UInt64
    /// Chunks of decrypted content written to disk.
    public var plaintextChunksWritten: UInt64
    /// Chunks of decrypted content deleted for their age.
    public var plaintextChunksExpired: UInt64
    /// Capture files deleted by retention when the capture rotated.
    public var capturesReclaimed: UInt64
    /// Retention sweeps, or deletions within one, that failed.
    public var retentionFailures: UInt64
    /// The last retention failure, as the person should read it.
    public var lastRetentionError: String?
    /// Naming flows from DNS answers.
    public var dnsNames: DNSNameStats
    /// Naming QUIC flows from their Initial packets.
    public var quicNames: QUICNameStats

    public init(packetsHandled: UInt64 = 0, bytesHandled: UInt64 = 0, packetsDroppedUnparseable: UInt64 = 0,
                packetsDroppedNoLocalAddress: UInt64 = 0, packetsCaptured: UInt64 = 0, captureFailures: UInt64 = 0,
                captureDisabledByFailure: Bool = false, lastCaptureError: String? = nil, packetsPublished: UInt64 = 0,
                liveFeedDrops: UInt64 = 0, storeBatchesWritten: UInt64 = 0, storeBatchesFailed: UInt64 = 0,
                packetsLostToStoreFailures: UInt64 = 0, lastStoreError: String? = nil, flowsOpened: UInt64 = 0,
                flowsClosed: UInt64 = 0, flowsExpired: UInt64 = 0, flowsEvicted: UInt64 = 0,
                reinjectedRecorded: UInt64 = 0, reinjectedRecordsDropped: UInt64 = 0, quicVersionsObserved: UInt64 = 0,
                plaintextChunksWritten: UInt64 = 0, plaintextChunksExpired: UInt64 = 0, capturesReclaimed: UInt64 = 0,
                retentionFailures: UInt64 = 0, lastRetentionError: String? = nil, dnsNames: DNSNameStats = .zero,
                quicNames: QUICNameStats = .zero) {
        self.packetsHandled = packetsHandled
        self.bytesHandled = bytesHandled
        self.packetsDroppedUnparseable = packetsDroppedUnparseable
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
        self.flowsOpened = flowsOpened
        self.flowsClosed = flowsClosed
        self.flowsExpired = flowsExpired
        self.flowsEvicted = flowsEvicted
        self.reinjectedRecorded = reinjectedRecorded
        self.reinjectedRecordsDropped = reinjectedRecordsDropped
        self.quicVersionsObserved = quicVersionsObserved
        self.plaintextChunksWritten = plaintextChunksWritten
        self.plaintextChunksExpired = plaintextChunksExpired
        self.capturesReclaimed = capturesReclaimed
        self.retentionFailures = retentionFailures
        self.lastRetentionError = lastRetentionError
        self.dnsNames = dnsNames
        self.quicNames = quicNames
    }

    /// Nothing handled yet.
    public static let zero = PipelineStats()
}
