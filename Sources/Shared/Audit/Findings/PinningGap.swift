/// Why the pinning check could not assess a flow (audit.md § Pinning). Raw values are stable
/// identifiers.
package enum PinningGap: String, CoverageGap, CaseIterable {
    /// The session was recorded with inspection off: no certificate was put to the app.
    case inspectionOff
    /// Inspection was on but its CA was not trusted: every app would refuse its certificates.
    case caNotTrusted
    /// The flow has an inspection outcome but announced no server name to tie it to.
    case outcomeWithoutAnnouncedName
    /// QUIC is not inspected, so its certificate checks are never put to the test.
    case quicNotInspected
    /// The TLS connection has no inspection outcome (not tried, stepped aside, or broken).
    case noInspectionOutcome

    package var identifier: String { rawValue }

    package var statement: String {
        switch self {
        case .inspectionOff:
            "The session was recorded with inspection off, so no certificate was put to the app."
        case .caNotTrusted:
            "Inspection was on but its CA was not trusted, so a refusal says nothing about pinning."
        case .outcomeWithoutAnnouncedName:
            "The connection has an inspection outcome but announced no server name to tie it to."
        case .quicNotInspected:
            "QUIC connections are not inspected, so their certificate checks were not tested."
        case .noInspectionOutcome:
            "The TLS connection has no inspection outcome, so its certificate checks were not tested."
        }
    }
}
