/// What a finding reports (audit.md § Findings). Raw values are the catalogue format's and the
/// evidence bundle's: they never change.
package enum FindingKind: String, Sendable, Hashable, CaseIterable {
    case weakTLSVersion
    case cleartextTraffic
    case hostNotInAllowlist
    case unnamedFlow
    case pinningAbsent
    case pinningObserved
    case activityBeforeConsent

    /// The check that produces findings of this kind: a catalogue rule reads kinds of one check only.
    package var check: AuditCheck {
        switch self {
        case .weakTLSVersion: .tlsVersion
        case .cleartextTraffic: .encryption
        case .hostNotInAllowlist, .unnamedFlow: .host
        case .pinningAbsent, .pinningObserved: .pinning
        case .activityBeforeConsent: .consent
        }
    }
}
