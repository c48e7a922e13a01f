import Foundation

/// A flow as the history holds it, dated. Counters are totals over every lifetime of the flow in
/// its session; facts are what was learnt, each nil when unknown.
package struct StoredFlow: Sendable, Hashable, Identifiable {
    package let id: Int64
    /// The history session that recorded it (`HistorySession.id`).
    package let session: Int64
    package let key: FlowKey
    /// Exact instants (ns since 1970), kept so a cursor pages exactly; read out as dates.
    let firstSeenNanoseconds: Int64
    let lastSeenNanoseconds: Int64
    package let bytesOut: UInt64
    package let bytesIn: UInt64
    package let packetCount: UInt64
    package let tlsStatus: TLSInspectionStatus
    package let sni: String?
    package let resolvedName: ResolvedFlowName?
    /// Where a proxy request opening the flow asked to be taken (`FlowRecord.proxyTarget`).
    package let proxyTarget: ProxyTarget?
    package let serverTLS: ServerTLSAnswer?
    package let clientTLS: ClientTLSOffer?
    /// JA4 and JA3 of the ClientHello (`FlowRecord.clientFingerprints`).
    package let clientFingerprints: ClientHelloFingerprints?
    /// JA3S of the cleartext ServerHello (`FlowRecord.serverFingerprints`).
    package let serverFingerprints: ServerHelloFingerprints?
    package let quic: QUICVersionReading?
    package let serverCertificates: ServerCertificateReading?
    package let streamOpening: StreamOpening?
    /// Why an encrypted flow was not decrypted, or how inspection broke it (`FlowRecord`'s).
    package let inspectionReason: InspectionReason?
    /// On an inspected flow: what the app and the tunnel's leaf negotiated.
    package let leafTLS: NegotiatedTLS?
    /// On an inspected flow: how the real server ended its side.
    package let serverEnding: TLSStreamEnding?
    /// The program whose socket the flow is, or why none was named; nil when nobody asked.
    package let program: ProgramAttribution?
    /// The machine's end, when the recorder knew (`FlowRecord.localEnd`).
    package let localEnd: IPEndpoint?
    /// On a DNS flow: what it asked and how it was answered (`FlowRecord.dnsExchange`).
    package let dnsExchange: DNSExchange?
    /// The audit session it is evidence of (`AuditSession.id`); nil for most traffic.
    package let auditSessionID: Int64?

    package var firstSeen: Date { EpochNanoseconds.date(firstSeenNanoseconds) }
    package var lastSeen: Date { EpochNanoseconds.date(lastSeenNanoseconds) }

    /// From first to last sighting; never negative.
    package var duration: TimeInterval {
        let (span, overflow) = lastSeenNanoseconds.subtractingReportingOverflow(firstSeenNanoseconds)
        return overflow ? 0 : Double(max(0, span)) / 1e9
    }

    /// The name the flow is shown by (`FlowName(sni:proxyTarget:resolved:dnsQuery:)`).
    package var name: FlowName? {
        FlowName(sni: sni, proxyTarget: proxyTarget, resolved: resolvedName, dnsQuery: dnsExchange?.question)
    }

    /// A flow as a pure core sees it (the audit's classifier, the release diff), made directly:
    /// the cores' tests build the rows each table names without a store.
    package init(id: Int64, session: Int64 = 1, key: FlowKey, firstSeen: Date, lastSeen: Date? = nil,
                bytesOut: UInt64 = 0, bytesIn: UInt64 = 0, packetCount: UInt64 = 0,
                tlsStatus: TLSInspectionStatus, sni: String? = nil, resolvedName: ResolvedFlowName? = nil,
                serverTLS: ServerTLSAnswer? = nil, clientTLS: ClientTLSOffer? = nil, quic: QUICVersionReading? = nil,
                serverCertificates: ServerCertificateReading? = nil, streamOpening: StreamOpening? = nil,
                inspectionReason: InspectionReason? = nil, leafTLS: NegotiatedTLS? = nil,
                serverEnding: TLSStreamEnding? = nil, program: ProgramAttribution? = nil, localEnd: IPEndpoint? = nil,
                dnsExchange: DNSExchange? = nil, auditSessionID: Int64? = nil, proxyTarget: ProxyTarget? = nil,
                clientFingerprints: ClientHelloFingerprints? = nil, serverFingerprints: ServerHelloFingerprints? = nil) {
        self.id = id
        self.session = session
        self.key = key
        firstSeenNanoseconds = EpochNanoseconds.first(notBefore: firstSeen)
        lastSeenNanoseconds = EpochNanoseconds.first(notBefore: lastSeen ?? firstSeen)
        self.bytesOut = bytesOut
        self.bytesIn = bytesIn
        self.packetCount = packetCount
        self.tlsStatus = tlsStatus
        self.sni = sni
        self.resolvedName = resolvedName
        self.proxyTarget = proxyTarget
        self.serverTLS = serverTLS
        self.clientTLS = clientTLS
        self.clientFingerprints = clientFingerprints
        self.serverFingerprints = serverFingerprints
        self.quic = quic
        self.serverCertificates = serverCertificates
        self.streamOpening = streamOpening
        self.inspectionReason = inspectionReason
        self.leafTLS = leafTLS
        self.serverEnding = serverEnding
        self.program = program
        self.localEnd = localEnd
        self.dnsExchange = dnsExchange
        self.auditSessionID = auditSessionID
    }

    /// The checked value of `row`; `corruptRow` when a column holds what no flow can have.
    init(row: FlowRow) throws(StoreError) {
        let label = "flow \(row.id)"
        func counter(_ value: Int64, _ column: String) throws(StoreError) -> UInt64 {
            guard let counter = UInt64(exactly: value) else { throw .corruptRow("\(label): \(column) \(value)") }
            return counter
        }
        guard let status = UInt8(exactly: row.tlsStatus).flatMap(TLSInspectionStatus.init(rawValue:)) else {
            throw .corruptRow("\(label): tls_status \(row.tlsStatus)")
        }
        let facts = FlowFactReader(values: row.facts, row: label)
        id = row.id
        session = row.session
        key = try row.key.key(row: label)
        firstSeenNanoseconds = row.firstSeen
        lastSeenNanoseconds = row.lastSeen
        bytesOut = try counter(row.bytesOut, "bytes_out")
        bytesIn = try counter(row.bytesIn, "bytes_in")
        packetCount = try counter(row.packetCount, "packet_count")
        tlsStatus = status
        sni = try facts.sni()
        resolvedName = try facts.resolvedName()
        proxyTarget = try facts.proxyTarget()
        serverTLS = try facts.serverTLS()
        clientTLS = try facts.clientTLS()
        clientFingerprints = try facts.clientFingerprints()
        serverFingerprints = try facts.serverFingerprints()
        quic = try facts.quic()
        serverCertificates = try facts.serverCertificates()
        streamOpening = try facts.streamOpening()
        inspectionReason = try facts.inspectionReason()
        leafTLS = try facts.leafTLS()
        serverEnding = try facts.serverEnding()
        program = try facts.program()
        localEnd = try facts.localEnd(of: key)
        dnsExchange = try facts.dnsExchange()
        auditSessionID = row.auditSession
    }
}
