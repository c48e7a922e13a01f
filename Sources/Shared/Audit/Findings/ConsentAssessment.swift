import Foundation

/// The consent check of one flow (audit.md § Consent): when its first packet was seen against the
/// session's consent markers. A marker's own instant counts as after consent.
package enum ConsentAssessment: Sendable, Hashable {
    case beforeConsent
    case afterConsent
    case notAssessed(ConsentGap)
    /// A baseline is recorded without the audited app: there is no consent to give.
    case notApplicable

    package init(of flow: StoredFlow, sessionKind: AuditSessionKind, consent: ConsentInterval?) {
        guard sessionKind != .baseline else {
            self = .notApplicable
            return
        }
        guard let consent else {
            self = .notAssessed(.noConsentMarker)
            return
        }
        if flow.firstSeen < consent.earliest {
            self = .beforeConsent
        } else if flow.firstSeen >= consent.latest {
            self = .afterConsent
        } else {
            self = .notAssessed(.betweenConsentMarkers)
        }
    }

    /// Where the flow lands in the check's coverage.
    package var outcome: CheckOutcome<ConsentGap> {
        switch self {
        case .beforeConsent: .finding(.activityBeforeConsent)
        case .afterConsent: .satisfied
        case let .notAssessed(gap): .unassessed(gap)
        case .notApplicable: .notApplicable
        }
    }
}
