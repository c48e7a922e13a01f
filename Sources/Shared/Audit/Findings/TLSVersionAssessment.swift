/// The TLS version check of one flow (audit.md § TLS version): the version the server chose, read
/// from its ServerHello, from the tunnel's own connection on an inspected flow, or implied by the
/// QUIC version it used, against the policy's minimum. Only published versions are ordered; no
/// server reading never means "not TLS".
package enum TLSVersionAssessment: Sendable, Hashable {
    case weak(TLSVersionObservation)
    case acceptable(TLSVersionObservation)
    case notAssessed(TLSVersionGap)
    case notApplicable

    /// `minimum` must be published (`FindingsPolicy` makes sure of it).
    package init(of flow: StoredFlow, minimum: TLSProtocolVersion) {
        precondition(minimum.isPublished, "only a published version can be a minimum")
        if let answer = flow.serverTLS, let assessment = Self(answer: answer, offer: flow.clientTLS, minimum: minimum) {
            self = assessment
        } else if let quic = flow.quic {
            self = Self(quic: quic, minimum: minimum)
        } else if flow.showsTLSOrQUIC {
            self = .notAssessed(.serverAnswerNotRead)
        } else {
            self = .notApplicable
        }
    }

    /// Nil when the answer is none of the server's (a leaf reading filed as one).
    private init?(answer: ServerTLSAnswer, offer: ClientTLSOffer?, minimum: TLSProtocolVersion) {
        guard case let .negotiated(negotiated) = answer else {
            self = .notAssessed(.serverRefused)
            return
        }
        let basis: TLSVersionBasis
        switch negotiated.source {
        case .serverHello: basis = .serverHello
        case .upstreamConnection: basis = .upstreamConnection
        case .tunnelLeaf: return nil
        }
        guard negotiated.version.isPublished else {
            self = .notAssessed(.unrecognisedVersion)
            return
        }
        let observation = TLSVersionObservation(version: negotiated.version, basis: basis)
        if negotiated.version.isOlder(than: minimum) {
            self = .weak(observation)
        } else if basis == .upstreamConnection, let gap = ClientOfferGap(offer: offer, minimum: minimum) {
            // The server answered the tunnel; the app's own offer must show it would settle for
            // nothing older with any server.
            self = .notAssessed(.appNegotiationNotObserved(gap))
        } else {
            self = .acceptable(observation)
        }
    }

    private init(quic: QUICVersionReading, minimum: TLSProtocolVersion) {
        // The server has the last word on the version, so a client's proposal settles nothing,
        // whatever it proposed.
        guard quic.source == .server else {
            self = .notAssessed(.quicVersionOnlyProposed)
            return
        }
        guard let version = quic.version.carriedTLSVersion else {
            self = .notAssessed(.unrecognisedQUICVersion)
            return
        }
        let observation = TLSVersionObservation(version: version, basis: .quic)
        self = version.isOlder(than: minimum) ? .weak(observation) : .acceptable(observation)
    }

    /// Where the flow lands in the check's coverage.
    package var outcome: CheckOutcome<TLSVersionGap> {
        switch self {
        case let .weak(observation): .finding(.weakTLSVersion(observation))
        case .acceptable: .satisfied
        case let .notAssessed(gap): .unassessed(gap)
        case .notApplicable: .notApplicable
        }
    }
}
