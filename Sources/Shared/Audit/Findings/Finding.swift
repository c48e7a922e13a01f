/// One statement about a session's traffic and every flow it holds for (audit.md § Findings).
package struct Finding: Sendable, Hashable {
    package let evidence: FindingEvidence
    /// Chronological (first packet, then id); never empty.
    package let flowIDs: [Int64]

    /// Nil without a flow: a finding always holds for at least one.
    package init?(evidence: FindingEvidence, flowIDs: [Int64]) {
        guard !flowIDs.isEmpty else { return nil }
        self.init(checked: evidence, flowIDs: flowIDs)
    }

    /// For the classifier, which never has a statement without a flow.
    init(checked evidence: FindingEvidence, flowIDs: [Int64]) {
        self.evidence = evidence
        self.flowIDs = flowIDs
    }

    package var kind: FindingKind { evidence.kind }

    package var statement: String { evidence.statement }
}
