/// The in-memory aggregate of one flow over its current lifetime in the flow table, and what is
/// written to its `flows` row. Counters and stamps cover this lifetime only: when the table drops
/// a flow and the 5-tuple returns, a new record starts at zero and the store carries the earlier
/// totals (`FlowStore.upsertFlow`).
///
/// Facts are reported once: a nil fact means "not known from this record", never "known absent".
package struct FlowRecord: Sendable, Hashable, Codable {
    /// The store's rowid; 0 until persisted.
    package var id: Int64 = 0
    package let key: FlowKey
    /// Monotonic nanoseconds (`PacketMeta.timestamp`'s clock).
    package let firstSeen: UInt64
    package var lastSeen: UInt64
    package var bytesOut: UInt64 = 0
    package var bytesIn: UInt64 = 0
    package var packetCount: UInt64 = 0
    package var tlsStatus: TLSInspectionStatus
    /// The host the ClientHello announced, if one was seen.
    package var sni: String?
    package var resolvedName: ResolvedFlowName?
    package var serverTLS: ServerTLSAnswer?
    package var clientTLS: ClientTLSOffer?
    package var serverCertificates: ServerCertificateReading?
    package var streamOpening: StreamOpening?

    /// The facts most flows never learn (`FlowRecordRareFacts`); nil while it knows none.
    private var rareFacts: RareFactsBox?

    /// A flow just seen for the first time: no traffic counted yet, nothing learnt about it.
    package init(key: FlowKey, firstSeen: UInt64, tlsStatus: TLSInspectionStatus) {
        self.key = key
        self.firstSeen = firstSeen
        self.lastSeen = firstSeen
        self.tlsStatus = tlsStatus
    }

    /// The name the flow is shown by (`FlowName(sni:proxyTarget:resolved:dnsQuery:)`).
    package var name: FlowName? {
        FlowName(sni: sni, proxyTarget: self.proxyTarget, resolved: resolvedName, dnsQuery: self.dnsExchange?.question)
    }
}

/// The rare facts, read and written as the record's own (`record.program`, `record.dnsExchange`…).
/// Spelled out, not a `@dynamicMemberLookup` key path: a key path projection cost the per-packet
/// path a generic metadata lookup per access (about a tenth of `analyze`'s CPU, measured).
extension FlowRecord {
    package var proxyTarget: ProxyTarget? {
        get { rareFacts?.facts.proxyTarget }
        set { changeRareFacts(clearing: newValue == nil) { $0.proxyTarget = newValue } }
    }
    package var clientFingerprints: ClientHelloFingerprints? {
        get { rareFacts?.facts.clientFingerprints }
        set { changeRareFacts(clearing: newValue == nil) { $0.clientFingerprints = newValue } }
    }
    package var serverFingerprints: ServerHelloFingerprints? {
        get { rareFacts?.facts.serverFingerprints }
        set { changeRareFacts(clearing: newValue == nil) { $0.serverFingerprints = newValue } }
    }
    package var quic: QUICVersionReading? {
        get { rareFacts?.facts.quic }
        set { changeRareFacts(clearing: newValue == nil) { $0.quic = newValue } }
    }
    package var inspectionReason: InspectionReason? {
        get { rareFacts?.facts.inspectionReason }
        set { changeRareFacts(clearing: newValue == nil) { $0.inspectionReason = newValue } }
    }
    package var leafTLS: NegotiatedTLS? {
        get { rareFacts?.facts.leafTLS }
        set { changeRareFacts(clearing: newValue == nil) { $0.leafTLS = newValue } }
    }
    package var serverEnding: TLSStreamEnding? {
        get { rareFacts?.facts.serverEnding }
        set { changeRareFacts(clearing: newValue == nil) { $0.serverEnding = newValue } }
    }
    package var program: ProgramAttribution? {
        get { rareFacts?.facts.program }
        set { changeRareFacts(clearing: newValue == nil) { $0.program = newValue } }
    }
    package var localEnd: IPEndpoint? {
        get { rareFacts?.facts.localEnd }
        set { changeRareFacts(clearing: newValue == nil) { $0.localEnd = newValue } }
    }
    package var dnsExchange: DNSExchange? {
        get { rareFacts?.facts.dnsExchange }
        set { changeRareFacts(clearing: newValue == nil) { $0.dnsExchange = newValue } }
    }

    /// Changes the rare facts in place when the box is this record's alone, else in a copy of it
    /// (copy on write); a change that clears a fact may leave none, and then no box.
    private mutating func changeRareFacts(clearing: Bool, _ change: (inout FlowRecordRareFacts) -> Void) {
        if rareFacts == nil {
            if clearing { return }
            rareFacts = RareFactsBox(FlowRecordRareFacts.none)
        } else if !isKnownUniquelyReferenced(&rareFacts) {
            rareFacts = RareFactsBox(rareFacts!.facts)
        }
        change(&rareFacts!.facts)
        if clearing && rareFacts!.facts.isEmpty { rareFacts = nil }
    }
}

/// What a flow record learns about few flows, or only in some targets (a program, a proxy, a DNS
/// exchange, inspection's outcome), read as the record's own (`FlowRecord.program`…). Kept
/// behind one reference: a record is copied at every flow table step and batch, and with these
/// inline it was 448 bytes — `analyze` of the bench capture touched 14 600 pages against 10 000
/// (`perf stat`), and peaked 13 MiB higher.
package struct FlowRecordRareFacts: Sendable, Hashable, Codable {
    /// Where a proxy request at the start of the client's stream asked to be taken (SOCKS, HTTP
    /// CONNECT): the flow is to the proxy, the target is what it carried.
    package var proxyTarget: ProxyTarget?
    /// JA4 and JA3 of the ClientHello `clientTLS` was read from; set with it.
    package var clientFingerprints: ClientHelloFingerprints?
    /// JA3S of the cleartext ServerHello `serverTLS` was read from; nil for any other answer.
    package var serverFingerprints: ServerHelloFingerprints?
    package var quic: QUICVersionReading?
    /// Why an encrypted flow was not decrypted, or how inspection broke it; nil for a flow that
    /// was inspected, is not TLS, or is not decided yet.
    package var inspectionReason: InspectionReason?
    /// On an inspected flow: what the app and the tunnel's leaf negotiated (`serverTLS` is then the
    /// real server's answer to the tunnel).
    package var leafTLS: NegotiatedTLS?
    /// On an inspected flow: how the real server ended its side.
    package var serverEnding: TLSStreamEnding?
    /// The program whose socket the flow is, as asked when it opened, or why none was named.
    package var program: ProgramAttribution?
    /// The end that is this machine's, when the one who recorded it knew (a watched interface,
    /// from the machine's own addresses); nil: the tunnel's addresses tell (`LiveFeedAddressing`),
    /// or neither end is the machine's.
    package var localEnd: IPEndpoint?
    /// On a DNS flow: what it asked and how it was answered.
    package var dnsExchange: DNSExchange?

    package init() {}

    static let none = FlowRecordRareFacts()

    var isEmpty: Bool { self == Self.none }
}

/// One heap reference to the rare facts, shared by a record's copies until one of them changes a
/// fact (copy on write, in `FlowRecord.changeRareFacts`): a change is made in place, with no copy
/// of the other facts, when the box is the record's alone.
///
/// `@unchecked Sendable`: `facts` is changed only through that setter, and only while the box is
/// uniquely referenced — a box two records (or two threads) hold is never written, only replaced.
final class RareFactsBox: @unchecked Sendable, Hashable, Codable {
    var facts: FlowRecordRareFacts

    init(_ facts: FlowRecordRareFacts) {
        self.facts = facts
    }

    static func == (lhs: RareFactsBox, rhs: RareFactsBox) -> Bool { lhs.facts == rhs.facts }
    func hash(into hasher: inout Hasher) { hasher.combine(facts) }

    init(from decoder: any Decoder) throws {
        facts = try decoder.singleValueContainer().decode(FlowRecordRareFacts.self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(facts)
    }
}
