/// How far one session reached a domain.
package enum DomainPresence: String, Sendable, Hashable, CaseIterable {
    /// The session never named it.
    case absent
    /// Only as one of several names of an address: maybe reached, maybe not.
    case candidateOnly
    /// At least one flow was surely its.
    case seen

    package init(_ observation: DomainObservation?) {
        guard let observation else { self = .absent; return }
        self = observation.isSeen ? .seen : .candidateOnly
    }
}

/// What a release did with a domain (audit.md § Release diff).
package enum DomainStatus: Sendable, Hashable {
    /// Absent from the earlier session, seen in the later one.
    case new
    /// Seen in the earlier session, absent from the later one.
    case gone
    /// Seen in both; the TLS versions compared per negotiator.
    case inBoth(app: TLSVersionComparison, tunnel: TLSVersionComparison)
    /// A candidate only, on one side or both: whether the release changed anything is not known.
    case undetermined(earlier: DomainPresence, later: DomainPresence)

    /// The status of a domain observed as `earlier` and `later` (at least one of them non-nil).
    package init(earlier: DomainObservation?, later: DomainObservation?) {
        switch (DomainPresence(earlier), DomainPresence(later)) {
        case (.seen, .seen):
            func comparison(_ negotiator: TLSNegotiator) -> TLSVersionComparison {
                TLSVersionComparison(earlier: earlier?.versions(negotiatedBy: negotiator) ?? [],
                                     later: later?.versions(negotiatedBy: negotiator) ?? [])
            }
            self = .inBoth(app: comparison(.app), tunnel: comparison(.tunnel))
        case (.absent, .seen): self = .new
        case (.seen, .absent): self = .gone
        case let (before, after): self = .undetermined(earlier: before, later: after)
        }
    }
}
