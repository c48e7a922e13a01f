/// The integers the audit tables hold for the model's kinds (audit.md § Schema v6): the one
/// mapping both ways, so a stored value never depends on an enum's declaration order.
enum AuditSerialization {
    /// `audit_sessions.kind`.
    static let baselineKind: Int64 = 0
    static let auditKind: Int64 = 1

    /// `audit_markers.kind`; a custom marker's words are in `label`.
    static func markerKind(_ kind: SessionMarkerKind) -> (code: Int64, label: String?) {
        switch kind {
        case .consentGiven: (0, nil)
        case .loggedIn: (1, nil)
        case .loggedOut: (2, nil)
        case let .custom(label): (3, label)
        }
    }

    /// The marker kind stored as `code` (with `label`); nil for a code no build wrote, or a custom
    /// marker without words.
    static func markerKind(code: Int64, label: String?) -> SessionMarkerKind? {
        switch code {
        case 0: .consentGiven
        case 1: .loggedIn
        case 2: .loggedOut
        case 3: label.map(SessionMarkerKind.custom)
        default: nil
        }
    }
}
