import Shared

/// One thing a scanner learned about a flow from its bytes, on its way to the flow table. The
/// relay (live) and the offline analyzer report the same facts the same way.
package enum FlowFact: Sendable, Equatable {
    case streamOpening(StreamOpening)
    case serverName(String)
    /// Where a proxy request opening the client's stream asked to be taken.
    case proxyTarget(ProxyTarget)
    case clientOffer(ClientTLSOffer)
    /// The ClientHello's JA4 and JA3: reported right after its `clientOffer`.
    case clientFingerprints(ClientHelloFingerprints)
    case serverAnswer(ServerTLSAnswer)
    /// The cleartext ServerHello's JA3S: reported right after its `serverAnswer`.
    case serverFingerprints(ServerHelloFingerprints)
    case serverCertificates(ServerCertificateReading)
    /// What TLS inspection made of the flow (the relay's verdict), and why when it did not inspect.
    case inspection(TLSInspectionStatus, InspectionReason?)
    /// What the app and the tunnel's leaf negotiated on an inspected flow.
    case leafTLS(NegotiatedTLS)
    /// How the real server ended its side of an inspected flow.
    case serverEnding(TLSStreamEnding)
    /// The program whose socket the flow is, or why none was named.
    case program(ProgramAttribution)
    /// The end that is the machine's (`FlowRecord.localEnd`).
    case localEnd(IPEndpoint)
    /// A DNS query the client sent: the first one's question becomes the flow's exchange.
    case dnsQuery(DNSExchange)
    /// A DNS reply: it answers the flow's exchange when it echoes its question, the first time
    /// (or begins it, when its query was not seen).
    case dnsReply(question: String, questionType: UInt16, reply: DNSReply)
}

extension FlowTable {
    /// Records `fact` on the live flow; a no-op when the flow is gone.
    package mutating func apply(_ fact: FlowFact, for key: FlowKey) {
        switch fact {
        case .streamOpening(let opening): setStreamOpening(opening, for: key)
        case .serverName(let name): setSNI(name, for: key)
        case .proxyTarget(let target): updateRecord(of: key) { $0.proxyTarget = target }
        case .clientOffer(let offer): setClientTLS(offer, for: key)
        case .clientFingerprints(let fingerprints): updateRecord(of: key) { $0.clientFingerprints = fingerprints }
        case .serverAnswer(let answer): setServerTLS(answer, for: key)
        case .serverFingerprints(let fingerprints): updateRecord(of: key) { $0.serverFingerprints = fingerprints }
        case .serverCertificates(let reading): updateRecord(of: key) { $0.serverCertificates = reading }
        case .inspection(let status, let reason):
            updateRecord(of: key) { record in
                record.tlsStatus = status
                record.inspectionReason = reason
            }
        case .leafTLS(let negotiated): updateRecord(of: key) { $0.leafTLS = negotiated }
        case .serverEnding(let ending): updateRecord(of: key) { $0.serverEnding = ending }
        case .program(let attribution): updateRecord(of: key) { $0.program = attribution }
        case .localEnd(let end): updateRecord(of: key) { $0.localEnd = end }
        case .dnsQuery(let exchange): updateRecord(of: key) { if $0.dnsExchange == nil { $0.dnsExchange = exchange } }
        case .dnsReply(let question, let type, let reply):
            updateRecord(of: key) { record in
                // A reply whose query was not seen (the reading began after it) still says both.
                guard let exchange = record.dnsExchange else {
                    return record.dnsExchange = DNSExchange(question: question, questionType: type, reply: reply)
                }
                guard exchange.reply == nil, exchange.question == question, exchange.questionType == type else { return }
                record.dnsExchange?.reply = reply
            }
        }
    }
}
