/// A project as the person writes it: everything but the id and instant the store assigns.
package struct AuditProjectDraft: Sendable, Hashable {
    package var name: String
    package var bundleIdentifier: String?
    package var catalogueVersion: String?
    package var allowlist: [AllowlistEntry]

    package init(name: String, bundleIdentifier: String? = nil, catalogueVersion: String? = nil, allowlist: [AllowlistEntry] = []) {
        self.name = name
        self.bundleIdentifier = bundleIdentifier
        self.catalogueVersion = catalogueVersion
        self.allowlist = allowlist
    }
}

/// A session about to start: everything but the id and the start the store assigns.
package struct AuditSessionDraft: Sendable, Hashable {
    package var projectID: Int64
    package var kind: AuditSessionKind
    package var environment: AuditEnvironment
    package var inspection: InspectionConditions
    package var notes: String

    package init(projectID: Int64, kind: AuditSessionKind, environment: AuditEnvironment, inspection: InspectionConditions,
                notes: String = "") {
        self.projectID = projectID
        self.kind = kind
        self.environment = environment
        self.inspection = inspection
        self.notes = notes
    }
}

/// The open session with its project's name: what a marker control says it marks.
package struct AuditRecording: Sendable, Hashable {
    package var session: AuditSession
    package var projectName: String

    package init(session: AuditSession, projectName: String) {
        self.session = session
        self.projectName = projectName
    }
}

/// What marking "the open session" did: placed, or nothing because no session was recording.
package enum OpenSessionMarkerOutcome: Sendable, Hashable {
    case placed(SessionMarker, in: AuditRecording)
    case noOpenSession
}
