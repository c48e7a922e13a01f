/// The host check of one flow (audit.md § Host): the flow's name (`StoredFlow.name`, never the
/// `sni` column alone) against the project's allowlist. An announced name is never second-guessed;
/// a name from DNS stands for every name sharing the address, so an allowed name does not clear
/// the address while a competitor is not allowed. The remote address itself is not read. Every
/// flow is about some host, so nothing is "not applicable"; an unnamed flow is reported as such.
package enum HostAssessment: Sendable, Hashable {
    case allowed
    /// `host` normalised: for a DNS name, the name the flow was given.
    case notInAllowlist(host: String)
    case unnamed(UnnamedFlowReason)
    case notAssessed(HostGap)

    package init(of flow: StoredFlow, project: AuditProject) {
        guard let name = flow.name else {
            self = .unnamed(Self.reason(offer: flow.clientTLS))
            return
        }
        // An empty allowlist is no deny-all: a named flow is left unassessed.
        guard !project.allowlist.isEmpty else {
            self = .notAssessed(.allowlistEmpty)
            return
        }
        func allowed(_ host: String) -> Bool { project.allowlistEntry(matching: host) != nil }
        let host = DomainPattern.normalised(host: name.text)
        let nameAllowed = allowed(host)
        switch name.origin {
        case .sni, .proxy, .dnsQuery:
            // A lookup is assessed by the name it asked about: the contact it prepares.
            self = nameAllowed ? .allowed : .notInAllowlist(host: host)
        case .dns:
            let othersAllowed = name.otherCandidates.map(allowed)
            if nameAllowed, !othersAllowed.contains(false) {
                self = .allowed
            } else if !nameAllowed, !othersAllowed.contains(true) {
                self = .notInAllowlist(host: host)
            } else {
                self = .notAssessed(.candidatesDisagree(attributedNameAllowed: nameAllowed))
            }
        }
    }

    private static func reason(offer: ClientTLSOffer?) -> UnnamedFlowReason {
        guard let offer else { return .noClientHelloRead }
        return offer.hasEncryptedClientHello ? .encryptedClientHello : .serverNameNotAnnounced
    }

    /// Where the flow lands in the check's coverage.
    package var outcome: CheckOutcome<HostGap> {
        switch self {
        case .allowed: .satisfied
        case let .notInAllowlist(host): .finding(.hostNotInAllowlist(host: host))
        case let .unnamed(reason): .finding(.unnamedFlow(reason))
        case let .notAssessed(gap): .unassessed(gap)
        }
    }
}
