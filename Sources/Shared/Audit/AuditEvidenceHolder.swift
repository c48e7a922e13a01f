/// An audit session some of whose evidence lies in a capture file, named as a person reads it
/// (`FlowStore.auditEvidenceHolders(ofCaptureFiles:)`): what a deletion of that file warns about.
package struct AuditEvidenceHolder: Sendable, Hashable {
    package let sessionID: Int64
    package let projectName: String

    package init(sessionID: Int64, projectName: String) {
        self.sessionID = sessionID
        self.projectName = projectName
    }

    /// `audit session 4 of "Therapy app"`.
    package var name: String { "audit session \(sessionID) of \"\(projectName)\"" }
}
