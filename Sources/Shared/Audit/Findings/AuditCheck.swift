/// The five checks the findings classifier runs on every flow of a session (audit.md § Findings).
/// Raw values are stable identifiers: the evidence bundle and the catalogue's rules name them.
package enum AuditCheck: String, Sendable, Hashable, CaseIterable {
    case tlsVersion
    case encryption
    case host
    case pinning
    case consent

    /// The check as a report names it.
    package var title: String {
        switch self {
        case .tlsVersion: "TLS version"
        case .encryption: "Encryption"
        case .host: "Destination hosts"
        case .pinning: "Certificate pinning"
        case .consent: "Activity before consent"
        }
    }

    /// The raw value as a JSONWriter key (keys are static strings): every document's `checks`.
    package var jsonKey: StaticString {
        switch self {
        case .tlsVersion: "tlsVersion"
        case .encryption: "encryption"
        case .host: "host"
        case .pinning: "pinning"
        case .consent: "consent"
        }
    }
}
