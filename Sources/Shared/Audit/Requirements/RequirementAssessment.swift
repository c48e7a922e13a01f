/// One requirement read against one session's findings (audit.md § Requirement catalogue's
/// verdict table): a rule that reads no kind is outside the tool's scope; a contrary finding
/// contradicts; otherwise satisfied flows of the rule's check, or a supporting finding, are an
/// observation without contradiction; otherwise nothing was observed.
package struct RequirementAssessment: Sendable, Hashable {
    package let requirement: Requirement
    package let verdict: RequirementVerdict
    /// The findings of the rule's contrary kinds, in the session's order.
    package let findingsAgainst: [Finding]
    /// The findings of the rule's supporting kinds, in the session's order.
    package let findingsFor: [Finding]

    package init(requirement: Requirement, findings: SessionFindings) {
        self.requirement = requirement
        let rule = requirement.rule
        findingsAgainst = findings.findings.filter { rule.contraryKinds.contains($0.kind) }
        findingsFor = findings.findings.filter { rule.supportingKinds.contains($0.kind) }
        if let check = rule.check {
            if !findingsAgainst.isEmpty {
                verdict = .contradicted
            } else if !findings.satisfiedFlowIDs(of: check).isEmpty || !findingsFor.isEmpty {
                verdict = .observedWithoutContradiction
            } else {
                verdict = .notAssessed(.nothingObserved)
            }
        } else {
            verdict = .notAssessed(.outsideToolScope)
        }
    }

    /// Every requirement of `catalogue`, in its order.
    package static func assess(_ catalogue: RequirementCatalogue, findings: SessionFindings) -> [RequirementAssessment] {
        catalogue.requirements.map { RequirementAssessment(requirement: $0, findings: findings) }
    }
}
