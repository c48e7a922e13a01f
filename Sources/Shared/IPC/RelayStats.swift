/// What the relay forwarded and, once a build inspects, what it inspected (`inspection`: nil until
/// then, and absent from the JSON, so no zero claims nothing was inspected).
package struct RelayStats: Codable, Sendable, Equatable {
    /// TCP flows for which an outbound connection was opened.
    package var tcpFlowsOpened: UInt64
    /// TCP flows closed, by either side.
    package var tcpFlowsClosed: UInt64
    /// UDP flows for which an outbound socket was opened.
    package var udpFlowsOpened: UInt64
    /// Outbound connections that failed to open (refused, unreachable, timed out).
    package var connectFailures: UInt64
    /// UDP datagrams answered "port unreachable": the server's host had no socket on the port
    /// (ECONNREFUSED on the flow's socket), and the monitored sender was told so.
    package var portUnreachableAnswers: UInt64
    /// Payload bytes read from the monitored side and sent out.
    package var bytesFromDevice: UInt64
    /// Payload bytes received from the network and written back to the monitored side.
    package var bytesToDevice: UInt64
    /// Datagrams the relay could not build or write back into the tunnel.
    package var emitterFailures: UInt64
    /// TCP segments from the device refused because their options do not parse (dropped; the
    /// device's retransmission or the flow's timeout follows).
    package var segmentsRefused: UInt64
    /// DNS queries forwarded to a resolver.
    package var dnsQueriesSent: UInt64
    /// DNS replies received from a resolver and written back.
    package var dnsRepliesReceived: UInt64
    /// TCP streams whose first bytes were a TLS ClientHello.
    package var streamOpeningsTLS: UInt64
    /// TCP streams whose first bytes were an HTTP request.
    package var streamOpeningsHTTP: UInt64
    /// TCP streams whose first bytes were neither.
    package var streamOpeningsUnrecognised: UInt64
    /// Of those, streams followed through a plaintext exchange to its switch to TLS (STARTTLS and
    /// its kin), their handshake read after it.
    package var streamsUpgradedToTLS: UInt64
    /// Plaintext exchanges given up before any switch: bytes their protocol forbids, or no switch
    /// within the bytes followed.
    package var plaintextUpgradesAbandoned: UInt64
    /// What TLS inspection did; nil while this build does not inspect.
    package var inspection: InspectionStats?

    package init(tcpFlowsOpened: UInt64 = 0, tcpFlowsClosed: UInt64 = 0, udpFlowsOpened: UInt64 = 0,
                connectFailures: UInt64 = 0, portUnreachableAnswers: UInt64 = 0, bytesFromDevice: UInt64 = 0, bytesToDevice: UInt64 = 0,
                emitterFailures: UInt64 = 0, segmentsRefused: UInt64 = 0, dnsQueriesSent: UInt64 = 0, dnsRepliesReceived: UInt64 = 0,
                streamOpeningsTLS: UInt64 = 0, streamOpeningsHTTP: UInt64 = 0, streamOpeningsUnrecognised: UInt64 = 0,
                streamsUpgradedToTLS: UInt64 = 0, plaintextUpgradesAbandoned: UInt64 = 0,
                inspection: InspectionStats? = nil) {
        self.tcpFlowsOpened = tcpFlowsOpened
        self.tcpFlowsClosed = tcpFlowsClosed
        self.udpFlowsOpened = udpFlowsOpened
        self.connectFailures = connectFailures
        self.portUnreachableAnswers = portUnreachableAnswers
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
    package static let zero = RelayStats()
}
