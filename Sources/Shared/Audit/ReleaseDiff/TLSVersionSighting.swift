/// One TLS version a flow was seen to negotiate, and whose handshake it was.
package struct TLSVersionSighting: Sendable, Hashable {
    package let flowID: Int64
    package let version: TLSProtocolVersion
    package let negotiator: TLSNegotiator

    package init(flowID: Int64, version: TLSProtocolVersion, negotiator: TLSNegotiator) {
        self.flowID = flowID
        self.version = version
        self.negotiator = negotiator
    }

    /// What `flow` says of its TLS version: the server's answer when it negotiated (by its source),
    /// and the TLS version a QUIC version read from the server carries. A refusal, a QUIC version
    /// only the client proposed, or one not known to carry TLS 1.3 is no sighting: no version was
    /// agreed, or none is known.
    package static func sightings(of flow: StoredFlow) -> [TLSVersionSighting] {
        var found: [TLSVersionSighting] = []
        if case let .negotiated(answer)? = flow.serverTLS, let negotiator = TLSNegotiator(answer.source) {
            found.append(TLSVersionSighting(flowID: flow.id, version: answer.version, negotiator: negotiator))
        }
        if let quic = flow.quic, quic.source == .server, let version = quic.version.carriedTLSVersion {
            found.append(TLSVersionSighting(flowID: flow.id, version: version, negotiator: .app))
        }
        return found
    }
}
