/// One domain across the two sessions of a release diff.
package struct DomainComparison: Sendable, Hashable {
    package let host: String
    /// Against the project's allowlist as it is today.
    package let standing: AllowlistStanding
    /// nil when that session never named the domain.
    package let earlier: DomainObservation?
    package let later: DomainObservation?
    package let status: DomainStatus

    init(host: String, standing: AllowlistStanding, earlier: DomainObservation?, later: DomainObservation?) {
        self.host = host
        self.standing = standing
        self.earlier = earlier
        self.later = later
        status = DomainStatus(earlier: earlier, later: later)
    }

    /// Seen in both, and either negotiator's versions read on both sides differ.
    package var hasTLSChange: Bool {
        guard case let .inBoth(app, tunnel) = status else { return false }
        return app.isChange || tunnel.isChange
    }
}
