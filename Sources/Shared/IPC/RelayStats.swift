/// What the relay forwarded and, once a build inspects, what it inspected (`inspection`: nil until
/// then, and absent from the JSON, so no zero claims nothing was inspected).
public struct RelayStats: Codable, Sendable, Equatable {
    /// TCP flows for which an outbound connection was opened.
    public var tcpFlowsOpened: UInt64
    /// TCP flows closed, by either side.
    public var tcpFlowsClosed: UInt64
    /// UDP flows for which an outbound socket was opened.
    public var udpFlowsOpened: UInt64
    /// Outbound connections that failed to open (refused, unreachable, timed out).
    public var connectFailures: UInt64
    /// Payload bytes read from the monitored side and sent out.
    public var bytesFromDevice: UInt64
    /// Payload bytes received from the network and written back to the monitored side.
    public var bytesToDevice: UInt64
    /// Datagrams the relay could not build or write back into the tunnel.
    public var emitterFailures: UInt64
    /// TCP segments from the device refused because their options do not parse (dropped; the
    /// device's retransmission or the flow's timeout follows).
    public var segmentsRefused: UInt64
    /// DNS queries forwarded to a resolver.
    public var dnsQueriesSent: UInt64
    /// DNS replies received from a resolver and written back.
    public var dnsRepliesReceived: UInt64
    /// TCP streams whose first bytes were a TLS ClientHello.
    public var streamOpeningsTLS: UInt64
    /// TCP streams whose first bytes were an HTTP request.
    public var streamOpeningsHTTP: UInt64
    /// TCP streams whose first bytes were neither.
    public var streamOpeningsUnrecognised: UInt64
    /// Of those, streams followed through a plaintext exchange to its switch to TLS (STARTTLS and
    /// its kin), their handshake read after it.
    public var streamsUpgradedToTLS: UInt64
    /// Plaintext exchanges given up before any switch: bytes their protocol forbids, or no switch
    /// within the bytes followed.
    public var plaintextUpgradesAbandoned: UInt64
    /// What TLS inspection did; nil while this build does not inspect.
    public var inspection: InspectionStats?

    public init(tcpFlowsOpened: UInt64 = 0, tcpFlowsClosed: UInt64 = 0, udpFlowsOpened: UInt64 = 0,
                connectFailures: UInt64 = 0, bytesFromDevice: UInt64 = 0, bytesToDevice: UInt64 = 0,
                emitterFailures: UInt64 = 0, segmentsRefused: UInt64 = 0, dnsQueriesSent: UInt64 = 0, dnsRepliesReceived: UInt64 = 0,
                streamOpeningsTLS: UInt64 = 0, streamOpeningsHTTP: UInt64 = 0, streamOpeningsUnrecognised: UInt64 = 0,
                streamsUpgradedToTLS: UInt64 = 0, plaintextUpgradesAbandoned: UInt64 = 0,
                inspection: InspectionStats? = nil) {
        self.tcpFlowsOpened = tcpFlowsOpened
        self.tcpFlowsClosed = tcpFlowsClosed
        self.udpFlowsOpened = udpFlowsOpened
        self.connectFailures = connectFailures
        self.bytesFromDevice = bytesFromDevice
        self.bytesToDevice = bytesToDevice
        self.emitterFailures = emitterFailures
        self.segmentsRefused = segmentsRefused
        self.dnsQueriesSent = dnsQueriesSent
        self.dnsRepliesReceived = dnsRepliesReceived
        self.streamOpeningsTLS = streamOpeningsTLS
        self.streamOpeningsHTTP = streamOpeningsHTTP
        self.streamOpeningsUnrecognised = streamOpeningsUnrecognised
        self.streamsUpgradedToTLS = streamsUpgradedToTLS
        self.plaintextUpgradesAbandoned = plaintextUpgradesAbandoned
        self.inspection = inspection
    }

    /// Nothing relayed yet.
    public static let zero = RelayStats()
}
