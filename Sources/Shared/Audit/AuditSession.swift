import Foundation

/// A release of the audited app: its version and build as the person gives them.
package struct AppRelease: Sendable, Hashable {
    package var version: String
    package var build: String

    package init(version: String, build: String) {
        self.version = version
        self.build = build
    }
}

/// What a session records (audit.md § Types): the machine without the audited app (`baseline`),
/// or one release of it. A baseline has no release, so it never enters a release diff.
package enum AuditSessionKind: Sendable, Hashable {
    case baseline
    case audit(AppRelease)

    package var release: AppRelease? {
        if case let .audit(release) = self { return release }
        return nil
    }

    /// `baseline` or `audit`: stable, the evidence bundle's.
    package var identifier: String {
        switch self {
        case .baseline: "baseline"
        case .audit: "audit"
        }
    }
}

/// Where a session was recorded: on Linux the machine's model, its kernel, and this tool's version.
package struct AuditEnvironment: Sendable, Hashable {
    package var deviceModel: String
    package var osVersion: String
    package var toolVersion: String

    package init(deviceModel: String, osVersion: String, toolVersion: String) {
        self.deviceModel = deviceModel
        self.osVersion = osVersion
        self.toolVersion = toolVersion
    }
}

/// Whether the session could tell pinning apart: only with inspection on and its CA trusted
/// does a client that refuses the inspecting certificate say something about pinning.
package struct InspectionConditions: Sendable, Hashable {
    package var inspectionEnabled: Bool
    package var caTrusted: Bool

    package init(inspectionEnabled: Bool, caTrusted: Bool) {
        self.inspectionEnabled = inspectionEnabled
        self.caTrusted = caTrusted
    }

    /// The only place the pinning check's precondition is stated.
    package var supportsPinningEvidence: Bool { inspectionEnabled && caTrusted }
}

/// One recording a person starts, names and ends (audit.md § Two "sessions": not the capture
/// session a tunnel start makes; it can span several of those). At most one is open at a time.
package struct AuditSession: Sendable, Hashable, Identifiable {
    package let id: Int64
    package let projectID: Int64
    package var kind: AuditSessionKind
    package var environment: AuditEnvironment
    package var inspection: InspectionConditions
    package let startedAt: Date
    package var endedAt: Date?
    package var notes: String

    package init(id: Int64, projectID: Int64, kind: AuditSessionKind, environment: AuditEnvironment,
                inspection: InspectionConditions, startedAt: Date, endedAt: Date? = nil, notes: String = "") {
        self.id = id
        self.projectID = projectID
        self.kind = kind
        self.environment = environment
        self.inspection = inspection
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.notes = notes
    }

    package var isOpen: Bool { endedAt == nil }
}
