/// What changed between two releases of one app, domain by domain (audit.md § Release diff).
/// Pure: two ended audit sessions of one project, all of their flows, and the project's allowlist
/// as it is today.
///
/// - Later is the session that started later (a tie goes to the greater id), whatever order the
///   two are given in — the refusal too, since each session's checks run earlier first.
/// - Domains: the later session's first, in its order, then those only the earlier one named.
package struct ReleaseDiff: Sendable, Hashable {
    package let earlier: AuditSession
    package let later: AuditSession
    package let earlierRelease: AppRelease
    package let laterRelease: AppRelease
    package let domains: [DomainComparison]
    package let earlierUnnamedFlowIDs: [Int64]
    package let laterUnnamedFlowIDs: [Int64]

    /// `firstFlows` and `secondFlows` must be each session's flows, complete
    /// (`FlowStore.flows(inAuditSession:)` without a limit); their order does not matter.
    package init(between first: AuditSession, flows firstFlows: [StoredFlow],
                and second: AuditSession, flows secondFlows: [StoredFlow],
                project: AuditProject) throws(ReleaseDiffRefusal) {
        guard first.id != second.id else { throw .sameSession }
        guard first.projectID == second.projectID else { throw .differentProjects }
        guard project.id == first.projectID else { throw .notTheSessionsProject }
        let firstIsEarlier = (first.startedAt, first.id) < (second.startedAt, second.id)
        let (earlier, later) = firstIsEarlier ? (first, second) : (second, first)
        guard let earlierRelease = earlier.kind.release else { throw .baseline(sessionID: earlier.id) }
        guard let laterRelease = later.kind.release else { throw .baseline(sessionID: later.id) }
        guard !earlier.isOpen else { throw .stillOpen(sessionID: earlier.id) }
        guard !later.isOpen else { throw .stillOpen(sessionID: later.id) }

        let before = SessionDomains(flows: firstIsEarlier ? firstFlows : secondFlows)
        let after = SessionDomains(flows: firstIsEarlier ? secondFlows : firstFlows)
        func comparison(_ host: String) -> DomainComparison {
            DomainComparison(host: host, standing: AllowlistStanding(of: host, in: project),
                             earlier: before.observation(of: host), later: after.observation(of: host))
        }
        let earlierOnly = before.domains.lazy.filter { after.observation(of: $0.host) == nil }
        domains = after.domains.map { comparison($0.host) } + earlierOnly.map { comparison($0.host) }
        self.earlier = earlier
        self.later = later
        self.earlierRelease = earlierRelease
        self.laterRelease = laterRelease
        earlierUnnamedFlowIDs = before.unnamedFlowIDs
        laterUnnamedFlowIDs = after.unnamedFlowIDs
    }

    package var newDomains: [DomainComparison] { domains.filter { $0.status == .new } }
    package var goneDomains: [DomainComparison] { domains.filter { $0.status == .gone } }
    package var domainsInBoth: [DomainComparison] {
        domains.filter { if case .inBoth = $0.status { true } else { false } }
    }
    package var undeterminedDomains: [DomainComparison] {
        domains.filter { if case .undetermined = $0.status { true } else { false } }
    }
    /// The headline: domains the later release reached that the earlier did not and that the
    /// allowlist does not cover. An empty allowlist makes none unexpected (it is not deny-all).
    package var unexpectedNewDomains: [DomainComparison] { newDomains.filter { $0.standing == .unlisted } }
    package var domainsWithTLSChange: [DomainComparison] { domains.filter(\.hasTLSChange) }
}
