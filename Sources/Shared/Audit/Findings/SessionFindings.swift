/// What the five checks made of one session's flows (audit.md § Findings): the findings, and for
/// each check where the flows outside its findings went. Statements only, no verdict: the
/// requirement catalogue reads these.
package struct SessionFindings: Sendable, Hashable {
    /// In the order of their first flow; a flow's own findings in the order cleartext, TLS
    /// version, destination, pinning, consent.
    package let findings: [Finding]
    package let tlsVersion: CheckCoverage<TLSVersionGap>
    package let encryption: CheckCoverage<EncryptionGap>
    package let host: CheckCoverage<HostGap>
    /// Never any satisfied flow: pinning only ever yields findings.
    package let pinning: CheckCoverage<PinningGap>
    package let consent: CheckCoverage<ConsentGap>

    package init(findings: [Finding], tlsVersion: CheckCoverage<TLSVersionGap>, encryption: CheckCoverage<EncryptionGap>,
                host: CheckCoverage<HostGap>, pinning: CheckCoverage<PinningGap>, consent: CheckCoverage<ConsentGap>) {
        self.findings = findings
        self.tlsVersion = tlsVersion
        self.encryption = encryption
        self.host = host
        self.pinning = pinning
        self.consent = consent
    }

    /// The findings of `check`, in order.
    package func findings(of check: AuditCheck) -> [Finding] {
        findings.filter { $0.kind.check == check }
    }

    /// The flows `check` read and found nothing against.
    package func satisfiedFlowIDs(of check: AuditCheck) -> [Int64] { buckets(of: check).satisfied }

    /// The flows `check` could not assess, whatever the reason.
    package func unassessedFlowIDs(of check: AuditCheck) -> [Int64] { buckets(of: check).unassessed }

    /// The flows `check` is not about.
    package func notApplicableFlowIDs(of check: AuditCheck) -> [Int64] { buckets(of: check).notApplicable }

    /// `check`'s coverage without its gaps' types.
    private func buckets(of check: AuditCheck) -> (satisfied: [Int64], unassessed: [Int64], notApplicable: [Int64]) {
        func flat<Gap>(_ coverage: CheckCoverage<Gap>) -> ([Int64], [Int64], [Int64]) {
            (coverage.satisfiedFlowIDs, coverage.unassessedFlowIDs, coverage.notApplicableFlowIDs)
        }
        switch check {
        case .tlsVersion: return flat(tlsVersion)
        case .encryption: return flat(encryption)
        case .host: return flat(host)
        case .pinning: return flat(pinning)
        case .consent: return flat(consent)
        }
    }
}
