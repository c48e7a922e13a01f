/// A project as the person writes it: everything but the id and instant the store assigns.
public struct AuditProjectDraft: Sendable, Hashable {
    public var name: String
    public var bundleIdentifier: String?
    public var catalogueVersion: String?
    public var allowlist: [AllowlistEntry]

    public init(name: String, bundleIdentifier: String? = nil, catalogueVersion: String? = nil, allowlist: [AllowlistEntry] = []) {
        self.name = name
        self.bundleIdentifier = bundleIdentifier
        self.catalogueVersion = catalogueVersion
        self.allowlist = allowlist
    }
}

/// A session about to start: everything but the id and the start the store assigns.
public struct AuditSessionDraft: Sendable, Hashable {
    public var projectID: Int64
    public var kind: AuditSessionKind
    public var environment: AuditEnvironment
    public var inspection: InspectionConditions
    public var notes: String

    public init(projectID: Int64, kind: AuditSessionKind, environment: AuditEnvironment, inspection: InspectionConditions,
                notes: String = "") {
        self.projectID = projectID
        self.kind = kind
        self.environment = environment
        self.inspection = inspection
        self.notes = notes
    }
}

/// The open session with its project's name: what a marker control says it marks.
public struct AuditRecording: Sendable, Hashable {
    public var session: AuditSession
    public var projectName: String

    public init(session: AuditSession, projectName: String) {
        self.session = session
        self.projectName = projectName
    }
}

/// What marking "the open session" did: placed, or nothing because no session was recording.
public enum OpenSessionMarkerOutcome: Sendable, Hashable {
    case placed(SessionMarker, in: AuditRecording)
    case noOpenSession
}
