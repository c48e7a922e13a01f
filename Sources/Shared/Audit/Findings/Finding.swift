/// One statement about a session's traffic and every flow it holds for (audit.md § Findings).
public struct Finding: Sendable, Hashable {
    public let evidence: FindingEvidence
    /// Chronological (first packet, then id); never empty.
    public let flowIDs: [Int64]

    /// Nil without a flow: a finding always holds for at least one.
    public init?(evidence: FindingEvidence, flowIDs: [Int64]) {
        guard !flowIDs.isEmpty else { return nil }
        self.init(checked: evidence, flowIDs: flowIDs)
    }

    /// For the classifier, which never has a statement without a flow.
    init(checked evidence: FindingEvidence, flowIDs: [Int64]) {
        self.evidence = evidence
        self.flowIDs = flowIDs
    }

    public var kind: FindingKind { evidence.kind }

    public var statement: String { evidence.statement }
}
