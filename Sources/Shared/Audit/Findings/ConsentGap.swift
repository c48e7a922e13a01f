/// Why the consent check could not assess a flow (audit.md § Consent). Raw values are stable
/// identifiers.
package enum ConsentGap: String, CoverageGap, CaseIterable {
    /// The session has no consent marker: there is no instant to compare with.
    case noConsentMarker
    /// The flow began after one consent marker but before another: which one counts is not known.
    case betweenConsentMarkers

    package var identifier: String { rawValue }

    package var statement: String {
        switch self {
        case .noConsentMarker:
            "The session has no consent marker, so no connection could be placed before or after consent."
        case .betweenConsentMarkers:
            "The connection began between two consent markers, so whether consent had been given is not known."
        }
    }
}
