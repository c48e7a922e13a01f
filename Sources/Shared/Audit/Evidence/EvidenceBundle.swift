import Foundation

/// The four documents of an evidence bundle made from one ended audit session (audit.md §
/// Evidence bundle): `session.json`, `flows.json`, `flows.csv` and `findings.json`. Pure: it
/// classifies the flows itself (`FindingsClassifier`) and reads the catalogue given against the
/// findings (`RequirementAssessment`), so every document states the same findings under the same
/// ids, `F1`, `F2`… in the findings' order.
///
/// Deterministic: keys sorted, flows first seen first (then id), instants ISO 8601 UTC with
/// microseconds, `exportedAt` given; the same input gives the same bytes. A key left out is a
/// reading that was not made — no nulls — except a flow's `serverCertificate`, always present
/// with its `visibility`. Neither decrypted content nor a release diff is in any document.
package struct EvidenceBundle: Sendable {
    package let project: AuditProject
    package let session: AuditSession
    /// The session's own markers, chronological.
    package let markers: [SessionMarker]
    /// First seen first, then by id.
    package let flows: [StoredFlow]
    package let catalogue: RequirementCatalogue
    package let exportedAt: Date
    package let findings: SessionFindings
    /// Every requirement of the catalogue, in its order.
    package let requirements: [RequirementAssessment]
    /// Each flow's findings (`F1`…), in the findings' order; every flow of the bundle is a key.
    package let findingIDs: [Int64: [String]]

    package init(project: AuditProject, session: AuditSession, markers: [SessionMarker], flows: [StoredFlow],
                catalogue: RequirementCatalogue, exportedAt: Date) throws(EvidenceBundleRefusal) {
        guard session.projectID == project.id else { throw .sessionOfAnotherProject }
        guard !session.isOpen else { throw .sessionStillOpen }
        var seen = Set<Int64>()
        seen.reserveCapacity(flows.count)
        for flow in flows where !seen.insert(flow.id).inserted { throw .duplicateFlow(id: flow.id) }
        self.project = project
        self.session = session
        self.markers = markers.filter { $0.sessionID == session.id }
            .sorted { ($0.date, $0.id) < ($1.date, $1.id) }
        self.flows = flows.sorted { ($0.firstSeenNanoseconds, $0.id) < ($1.firstSeenNanoseconds, $1.id) }
        self.catalogue = catalogue
        self.exportedAt = exportedAt
        findings = FindingsClassifier.classify(flows: self.flows, project: project, session: session, markers: self.markers,
                                               policy: catalogue.policy)
        requirements = RequirementAssessment.assess(catalogue, findings: findings)
        var ids: [Int64: [String]] = [:]
        ids.reserveCapacity(flows.count)
        for flow in self.flows { ids[flow.id] = [] }
        for (index, finding) in findings.findings.enumerated() {
            for flowID in finding.flowIDs { ids[flowID]?.append(Self.findingID(index)) }
        }
        findingIDs = ids
    }

    /// `F1` for the first finding.
    package static func findingID(_ index: Int) -> String { "F\(index + 1)" }

    /// The ids of findings (`F2`, …), in order.
    func ids(of findings: [Finding]) -> [String] {
        var index: [Finding: Int] = [:]
        for (position, finding) in self.findings.findings.enumerated() { index[finding] = position }
        return findings.compactMap { index[$0].map(Self.findingID) }
    }

    /// One document: its file name in the bundle and its bytes.
    package struct Document: Sendable, Hashable {
        package let name: String
        package let bytes: [UInt8]
    }

    /// The four documents, in the order an export writes them.
    package var documents: [Document] {
        [Document(name: EvidenceBundleFormat.sessionFile, bytes: sessionJSON),
         Document(name: EvidenceBundleFormat.flowsFile, bytes: flowsJSON),
         Document(name: EvidenceBundleFormat.flowsCSVFile, bytes: flowsCSV),
         Document(name: EvidenceBundleFormat.findingsFile, bytes: findingsJSON)]
    }
}
