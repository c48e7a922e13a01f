/// What one session's findings say of one requirement (audit.md § Requirement catalogue). There is
/// deliberately no verdict that a requirement is met: traffic can contradict a requirement, or be
/// observed without contradicting it, and that is all a network observation can say.
package enum RequirementVerdict: Sendable, Hashable {
    /// A finding of a contrary kind.
    case contradicted
    /// Traffic the requirement concerns was observed and none of it contradicts the requirement.
    case observedWithoutContradiction
    case notAssessed(NotAssessedReason)

    package enum NotAssessedReason: String, Sendable, Hashable, CaseIterable {
        /// The requirement reads no finding: network observation cannot speak to it.
        case outsideToolScope
        /// The requirement reads findings, but nothing it concerns was observed.
        case nothingObserved
    }

    /// Stable; the evidence bundle's.
    package var identifier: String {
        switch self {
        case .contradicted: "contradicted"
        case .observedWithoutContradiction: "observedWithoutContradiction"
        case let .notAssessed(reason): reason.rawValue
        }
    }

    /// One English sentence a report prints.
    package var statement: String {
        switch self {
        case .contradicted:
            "The session's traffic contradicts this requirement; the findings against it say how."
        case .observedWithoutContradiction:
            "Traffic this requirement concerns was observed and none of it contradicts the requirement; "
                + "this does not show that the requirement is met."
        case .notAssessed(.outsideToolScope):
            "Network observation cannot assess this requirement; it needs another kind of review."
        case .notAssessed(.nothingObserved):
            "Nothing this requirement concerns was observed in the session, so it was not assessed."
        }
    }
}
