import Foundation
import Shared

/// One session's findings read against its project's catalogue (`audit findings`, the Audit
/// screen): statements and verdicts, never a verdict that a requirement is met.
package struct AuditFindingsReport: Sendable {
    package let session: AuditSession
    package let project: AuditProject
    package let markers: [SessionMarker]
    /// The session's connections, first seen first.
    package let flows: [StoredFlow]
    package var flowCount: Int { flows.count }
    package let catalogue: RequirementCatalogue
    package let findings: SessionFindings
    package let assessments: [RequirementAssessment]

    /// Reads session `id`, its project, markers and flows, and classifies them.
    static func of(session id: Int64, in store: FlowStore) async throws(QuestionFailure) -> AuditFindingsReport {
        let (session, project, markers, flows) = try await AuditQuestion.audit { () throws(AuditStoreError) in
            guard let session = try await store.auditSession(id: id) else { throw .sessionNotFound(id) }
            guard let project = try await store.auditProject(id: session.projectID) else { throw .projectNotFound(session.projectID) }
            return (session, project, try await store.markers(forSession: id), try await store.allFlows(inAuditSession: id))
        }
        let identifier = RequirementCatalogueLibrary.identifier(for: project)
        let catalogue: RequirementCatalogue
        do { catalogue = try RequirementCatalogueLibrary.catalogue(identifier: identifier) } catch {
            throw QuestionFailure(.failed, "audit findings: \(error)")
        }
        return of(session: session, project: project, markers: markers, flows: flows, catalogue: catalogue)
    }

    /// Pure: the report of these readings.
    package static func of(session: AuditSession, project: AuditProject, markers: [SessionMarker], flows: [StoredFlow],
                          catalogue: RequirementCatalogue) -> AuditFindingsReport {
        let findings = FindingsClassifier.classify(flows: flows, project: project, session: session, markers: markers,
                                                   policy: catalogue.policy)
        return AuditFindingsReport(session: session, project: project, markers: markers, flows: flows,
                                   catalogue: catalogue, findings: findings,
                                   assessments: RequirementAssessment.assess(catalogue, findings: findings))
    }

    /// Finding ids as the evidence bundle numbers them: `F1`, `F2`… in findings order.
    package static func findingID(_ index: Int) -> String { EvidenceBundle.findingID(index) }

    package var text: String {
        var lines = ["Audit session \(session.id) of \(project.name): \(AuditSessionWording.kind(session.kind)), "
                     + AuditSessionWording.span(session) + ", \(flowCount) connection\(flowCount == 1 ? "" : "s")"]
        lines.append("Read against \(catalogue.source.document) \(catalogue.source.version) (catalogue \(catalogue.identifier)); "
                     + "TLS minimum \(catalogue.policy.minimumTLSVersion.name).")
        lines.append("")
        lines.append(findings.findings.isEmpty ? "Findings: none." : "Findings:")
        for (index, finding) in findings.findings.enumerated() {
            lines.append("  \(Self.findingID(index))  \(finding.statement)  [\(finding.kind.rawValue); connections "
                         + AuditSessionWording.ids(finding.flowIDs) + "]")
        }
        lines.append("")
        lines.append("Checks (connections: finding / without finding / not assessed / not applicable):")
        for check in AuditCheck.allCases {
            let withFinding = Set(findings.findings(of: check).flatMap(\.flowIDs)).count
            lines.append("  \(check.title): \(withFinding) / \(findings.satisfiedFlowIDs(of: check).count) / "
                         + "\(findings.unassessedFlowIDs(of: check).count) / \(findings.notApplicableFlowIDs(of: check).count)")
        }
        lines.append("")
        lines.append("Requirements:")
        for assessment in assessments {
            lines.append("  \(assessment.requirement.id)  \(AuditSessionWording.verdict(assessment.verdict))  \(assessment.requirement.title)")
            let against = ids(of: assessment.findingsAgainst), supporting = ids(of: assessment.findingsFor)
            if !against.isEmpty { lines.append("      against: \(against.joined(separator: ", "))") }
            if !supporting.isEmpty { lines.append("      for: \(supporting.joined(separator: ", "))") }
        }
        lines.append("")
        lines.append(AuditSessionWording.verdictsNote)
        return lines.joined(separator: "\n")
    }

    private func ids(of chosen: [Finding]) -> [String] {
        chosen.compactMap { finding in findings.findings.firstIndex(of: finding).map(Self.findingID) }
    }

    package var json: String {
        var out = JSONWriter()
        out.beginObject()
        AuditJSON.session(session, projectName: project.name, into: &out)
        out.number("flowCount", flowCount)
        out.string("catalogue", catalogue.identifier)
        out.string("tlsMinimum", catalogue.policy.minimumTLSVersion.name)
        out.beginArray("findings")
        for (index, finding) in findings.findings.enumerated() {
            out.beginObject()
            out.string("id", Self.findingID(index))
            out.string("kind", finding.kind.rawValue)
            out.string("check", finding.kind.check.rawValue)
            out.string("statement", finding.statement)
            if let host = finding.evidence.host { out.string("host", host) }
            out.numbers("flowIDs", finding.flowIDs.map { Int($0) })
            out.endObject()
        }
        out.endArray()
        out.beginObject("checks")
        for check in AuditCheck.allCases {
            out.key(check.jsonKey)
            out.beginObject()
            out.numbers("findingFlowIDs", Array(Set(findings.findings(of: check).flatMap(\.flowIDs))).sorted().map { Int($0) })
            out.numbers("satisfiedFlowIDs", findings.satisfiedFlowIDs(of: check).map { Int($0) })
            out.numbers("unassessedFlowIDs", findings.unassessedFlowIDs(of: check).map { Int($0) })
            out.numbers("notApplicableFlowIDs", findings.notApplicableFlowIDs(of: check).map { Int($0) })
            out.endObject()
        }
        out.endObject()
        out.beginArray("requirements")
        for assessment in assessments {
            out.beginObject()
            out.string("id", assessment.requirement.id)
            out.string("title", assessment.requirement.title)
            out.string("verdict", assessment.verdict.identifier)
            out.string("verdictStatement", assessment.verdict.statement)
            out.strings("findingsAgainst", ids(of: assessment.findingsAgainst))
            out.strings("findingsFor", ids(of: assessment.findingsFor))
            out.endObject()
        }
        out.endArray()
        out.string("verdictsNote", AuditSessionWording.verdictsNote)
        out.endObject()
        return out.writer.string
    }
}
