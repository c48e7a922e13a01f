import Testing
import Shared

/// The verdict table, row by row (audit.md § Requirement catalogue): what a session's findings
/// say of a requirement, never that it is met.
@Suite struct RequirementAssessmentTests {
    static func finding(_ evidence: FindingEvidence, _ flowIDs: Int64...) -> Finding { Finding(evidence: evidence, flowIDs: flowIDs)! }

    static func findings(_ findings: [Finding] = [], encryptionSatisfied: [Int64] = [], hostUnassessed: [Int64] = []) -> SessionFindings {
        SessionFindings(findings: findings, tlsVersion: CheckCoverage(), encryption: CheckCoverage(satisfiedFlowIDs: encryptionSatisfied),
                        host: CheckCoverage(unassessed: hostUnassessed.isEmpty ? [] : [UnassessedFlows(gap: .allowlistEmpty, flowIDs: hostUnassessed)]),
                        pinning: CheckCoverage(), consent: CheckCoverage())
    }

    static func requirement(_ rule: RequirementRule) -> Requirement {
        Requirement(id: "O.Test_1", title: "A test requirement", rule: rule, toolCoverage: "What the tool sees.")
    }

    static let cleartext = finding(.cleartextTraffic(.http), 1, 2)
    static let absent = finding(.pinningAbsent(host: "a.example"), 3)
    static let observed = finding(.pinningObserved(host: "b.example"), 4)
    static let pinning = RequirementRule.contraryAndSupportingFindings(contrary: [.pinningAbsent], supporting: [.pinningObserved])

    @Test("a rule that reads no kind is outside the tool's scope, whatever was found")
    func outsideToolScope() {
        for rule in [RequirementRule.outsideToolScope, .contraryFindings([])] {
            let assessment = RequirementAssessment(requirement: Self.requirement(rule),
                                                   findings: Self.findings([Self.cleartext], encryptionSatisfied: [5]))
            #expect(assessment.verdict == .notAssessed(.outsideToolScope))
            #expect(assessment.findingsAgainst.isEmpty && assessment.findingsFor.isEmpty)
        }
    }

    @Test("a contrary finding contradicts, even beside satisfied flows and supporting findings")
    func contradicted() {
        let encryption = RequirementAssessment(requirement: Self.requirement(.contraryFindings([.cleartextTraffic])),
                                               findings: Self.findings([Self.absent, Self.cleartext], encryptionSatisfied: [5, 6]))
        #expect(encryption.verdict == .contradicted && encryption.findingsAgainst == [Self.cleartext])
        let pinning = RequirementAssessment(requirement: Self.requirement(Self.pinning),
                                            findings: Self.findings([Self.observed, Self.absent]))
        #expect(pinning.verdict == .contradicted)
        #expect(pinning.findingsAgainst == [Self.absent] && pinning.findingsFor == [Self.observed])
    }

    @Test("no contrary finding and satisfied flows in the rule's check is observed without contradiction")
    func observedThroughSatisfiedFlows() {
        let assessment = RequirementAssessment(requirement: Self.requirement(.contraryFindings([.cleartextTraffic])),
                                               findings: Self.findings([Self.absent], encryptionSatisfied: [5]))
        #expect(assessment.verdict == .observedWithoutContradiction && assessment.findingsAgainst.isEmpty)
    }

    @Test("no contrary finding and a supporting finding is observed without contradiction")
    func observedThroughSupportingFinding() {
        let assessment = RequirementAssessment(requirement: Self.requirement(Self.pinning), findings: Self.findings([Self.observed]))
        #expect(assessment.verdict == .observedWithoutContradiction && assessment.findingsFor == [Self.observed])
    }

    @Test("otherwise nothing was observed: unassessed flows, or satisfied flows of another check, are no observation")
    func nothingObserved() {
        let rows = [
            (RequirementRule.contraryFindings([.hostNotInAllowlist, .unnamedFlow]), Self.findings([Self.cleartext], encryptionSatisfied: [5], hostUnassessed: [6])),
            (Self.pinning, Self.findings(encryptionSatisfied: [5])),
            (.contraryFindings([.cleartextTraffic]), Self.findings()),
        ]
        for (rule, findings) in rows {
            #expect(RequirementAssessment(requirement: Self.requirement(rule), findings: findings).verdict == .notAssessed(.nothingObserved))
        }
    }

    @Test("a catalogue is assessed requirement by requirement, in its order")
    func wholeCatalogue() throws {
        let catalogue = try RequirementCatalogueLibrary.catalogue(identifier: RequirementCatalogueLibrary.defaultIdentifier)
        let assessments = RequirementAssessment.assess(catalogue, findings: Self.findings([Self.cleartext, Self.observed]))
        #expect(assessments.map(\.requirement) == catalogue.requirements)
        #expect(assessments.map(\.verdict.identifier) == [
            "nothingObserved", "nothingObserved", "contradicted", "nothingObserved", "outsideToolScope",
            "observedWithoutContradiction", "outsideToolScope", "outsideToolScope", "outsideToolScope", "outsideToolScope",
        ])
    }

    @Test("verdict identifiers are stable and no verdict's wording says pass")
    func wording() {
        let verdicts: [RequirementVerdict] = [.contradicted, .observedWithoutContradiction, .notAssessed(.outsideToolScope), .notAssessed(.nothingObserved)]
        #expect(verdicts.map(\.identifier) == ["contradicted", "observedWithoutContradiction", "outsideToolScope", "nothingObserved"])
        #expect(RequirementVerdict.NotAssessedReason.allCases.map(\.rawValue) == ["outsideToolScope", "nothingObserved"])
        for text in verdicts.flatMap({ [$0.identifier, $0.statement] }) + RequirementRule.Name.allCases.map(\.rawValue) {
            #expect(!text.lowercased().contains("pass"), "\(text)")
        }
        #expect(Set(verdicts.map(\.statement)).count == verdicts.count)
    }
}
