/// The domains one audit session's flows reached, the ground a release diff stands on
/// (audit.md § Release diff). Pure: the flows in, the domains out.
///
/// A flow's domain is its name (`StoredFlow.name`), normalised:
/// - an announced name (SNI) → that domain's `flowIDs`;
/// - a DNS name the address had alone → that domain's `flowIDs`;
/// - a DNS name among other live names of the address → `candidateFlowIDs` of every one of them;
/// - no name → `unnamedFlowIDs`.
package struct SessionDomains: Sendable, Hashable {
    /// In the order the session first named them (as a flow's name or one of its candidates).
    package let domains: [DomainObservation]
    /// Flows with no name at all, in the session's order.
    package let unnamedFlowIDs: [Int64]
    private let indexByHost: [String: Int]

    /// `flows` are the session's, all of them; their order does not matter (they are read by first
    /// packet, then id), and a flow given twice counts once.
    package init(flows: [StoredFlow]) {
        var seenIDs = Set<Int64>()
        let ordered = flows.sorted { ($0.firstSeen, $0.id) < ($1.firstSeen, $1.id) }.filter { seenIDs.insert($0.id).inserted }
        var domains: [DomainObservation] = []
        var indexByHost: [String: Int] = [:]
        var unnamed: [Int64] = []
        func index(of host: String) -> Int {
            if let index = indexByHost[host] { return index }
            domains.append(DomainObservation(host: host))
            indexByHost[host] = domains.count - 1
            return domains.count - 1
        }
        for flow in ordered {
            let candidates = Self.candidates(of: flow)
            switch candidates.count {
            case 0:
                unnamed.append(flow.id)
            case 1:
                let at = index(of: candidates[0])
                domains[at].flowIDs.append(flow.id)
                let sightings = TLSVersionSighting.sightings(of: flow)
                if sightings.isEmpty {
                    domains[at].flowIDsWithoutTLSReading.append(flow.id)
                } else {
                    domains[at].tlsSightings += sightings
                }
            default:
                for host in candidates { domains[index(of: host)].candidateFlowIDs.append(flow.id) }
            }
        }
        self.domains = domains
        self.indexByHost = indexByHost
        unnamedFlowIDs = unnamed
    }

    /// The observation of `host` (normalised here), nil when the session never named it.
    package func observation(of host: String) -> DomainObservation? {
        indexByHost[DomainPattern.normalised(host: host)].map { domains[$0] }
    }

    /// The names `flow` may have been for, normalised and each once: one for an SNI or a DNS name
    /// without competitors, several for a contested address, none for an unnamed flow.
    static func candidates(of flow: StoredFlow) -> [String] {
        guard let name = flow.name else { return [] }
        var hosts: [String] = []
        for text in [name.text] + name.otherCandidates {
            let host = DomainPattern.normalised(host: text)
            if !host.isEmpty, !hosts.contains(host) { hosts.append(host) }
        }
        return hosts
    }
}
