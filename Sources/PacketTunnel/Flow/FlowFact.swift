import Shared

/// One thing a scanner learned about a flow from its bytes, on its way to the flow table. The
/// relay (live) and the offline analyzer report the same facts the same way.
package enum FlowFact: Sendable, Equatable {
    case streamOpening(StreamOpening)
    case serverName(String)
    case clientOffer(ClientTLSOffer)
    case serverAnswer(ServerTLSAnswer)
    case serverCertificates(ServerCertificateReading)
    /// What TLS inspection made of the flow (the relay's verdict).
    case inspection(TLSInspectionStatus)
    /// Why an inspection attempt failed the flow closed (the upstream's verification, say).
    case inspectionFailure(String)
}

extension FlowTable {
    /// Records `fact` on the live flow; a no-op when the flow is gone.
    package mutating func apply(_ fact: FlowFact, for key: FlowKey) {
        switch fact {
        case .streamOpening(let opening): setStreamOpening(opening, for: key)
        case .serverName(let name): setSNI(name, for: key)
        case .clientOffer(let offer): setClientTLS(offer, for: key)
        case .serverAnswer(let answer): setServerTLS(answer, for: key)
        case .serverCertificates(let reading): updateRecord(of: key) { $0.serverCertificates = reading }
        case .inspection(let status): setTLSStatus(status, for: key)
        case .inspectionFailure(let reason): updateRecord(of: key) { $0.inspectionFailure = reason }
        }
    }
}
