/// An audit session some of whose evidence lies in a capture file, named as a person reads it
/// (`FlowStore.auditEvidenceHolders(ofCaptureFiles:)`): what a deletion of that file warns about.
public struct AuditEvidenceHolder: Sendable, Hashable {
    public let sessionID: Int64
    public let projectName: String

    public init(sessionID: Int64, projectName: String) {
        self.sessionID = sessionID
        self.projectName = projectName
    }

    /// `audit session 4 of "Therapy app"`.
    public var name: String { "audit session \(sessionID) of \"\(projectName)\"" }
}
