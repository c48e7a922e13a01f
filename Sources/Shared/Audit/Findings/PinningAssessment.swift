/// The pinning check of one flow (audit.md § Pinning): what became of the inspection attempt, read
/// from `tlsStatus` alone. `inspected` means the app completed a handshake against the local CA's
/// leaf, so it trusts a user root for that host (pinning absent); `notInspectable` means it refused
/// it — it pins, or trusts no user root, and which is not known (pinning observed). `encrypted`
/// alone is no acceptance. Nothing is bypassed to find out. A host can have both findings: after
/// a first refusal the tunnel leaves the host alone for the rest of its run, so later flows are
/// marked without being tested. No flow is ever "satisfied". Baselines are classified the same.
package enum PinningAssessment: Sendable, Hashable {
    /// `host` is the announced name, normalised.
    case absent(host: String)
    /// `host` is the announced name, normalised.
    case observed(host: String)
    case notAssessed(PinningGap)
    case notApplicable

    /// The first failing reason wins.
    package init(of flow: StoredFlow, conditions: InspectionConditions) {
        // An outcome is itself a sign of TLS (its status is not plaintext).
        guard flow.streamOpening != .httpRequest, flow.showsTLSOrQUIC else {
            self = .notApplicable
            return
        }
        guard conditions.supportsPinningEvidence else {
            self = .notAssessed(conditions.inspectionEnabled ? .caNotTrusted : .inspectionOff)
            return
        }
        if flow.tlsStatus == .inspected || flow.tlsStatus == .notInspectable {
            guard let host = flow.announcedHost else {
                self = .notAssessed(.outcomeWithoutAnnouncedName)
                return
            }
            self = flow.tlsStatus == .inspected ? .absent(host: host) : .observed(host: host)
        } else if flow.quic != nil {
            self = .notAssessed(.quicNotInspected)
        } else {
            self = .notAssessed(.noInspectionOutcome)
        }
    }

    /// Where the flow lands in the check's coverage.
    package var outcome: CheckOutcome<PinningGap> {
        switch self {
        case let .absent(host): .finding(.pinningAbsent(host: host))
        case let .observed(host): .finding(.pinningObserved(host: host))
        case let .notAssessed(gap): .unassessed(gap)
        case .notApplicable: .notApplicable
        }
    }
}
