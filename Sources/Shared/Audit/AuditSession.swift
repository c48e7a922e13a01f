import Foundation

/// A release of the audited app: its version and build as the person gives them.
public struct AppRelease: Sendable, Hashable {
    public var version: String
    public var build: String

    public init(version: String, build: String) {
        self.version = version
        self.build = build
    }
}

/// What a session records (audit.md § Types): the machine without the audited app (`baseline`),
/// or one release of it. A baseline has no release, so it never enters a release diff.
public enum AuditSessionKind: Sendable, Hashable {
    case baseline
    case audit(AppRelease)

    public var release: AppRelease? {
        if case let .audit(release) = self { return release }
        return nil
    }

    /// `baseline` or `audit`: stable, the evidence bundle's.
    public var identifier: String {
        switch self {
        case .baseline: "baseline"
        case .audit: "audit"
        }
    }
}

/// Where a session was recorded: on Linux the machine's model, its kernel, and this tool's version.
public struct AuditEnvironment: Sendable, Hashable {
    public var deviceModel: String
    public var osVersion: String
    public var toolVersion: String

    public init(deviceModel: String, osVersion: String, toolVersion: String) {
        self.deviceModel = deviceModel
        self.osVersion = osVersion
        self.toolVersion = toolVersion
    }
}

/// Whether the session could tell pinning apart: only with inspection on and its CA trusted
/// does a client that refuses the inspecting certificate say something about pinning.
public struct InspectionConditions: Sendable, Hashable {
    public var inspectionEnabled: Bool
    public var caTrusted: Bool

    public init(inspectionEnabled: Bool, caTrusted: Bool) {
        self.inspectionEnabled = inspectionEnabled
        self.caTrusted = caTrusted
    }

    /// The only place the pinning check's precondition is stated.
    public var supportsPinningEvidence: Bool { inspectionEnabled && caTrusted }
}

/// One recording a person starts, names and ends (audit.md § Two "sessions": not the capture
/// session a tunnel start makes; it can span several of those). At most one is open at a time.
public struct AuditSession: Sendable, Hashable, Identifiable {
    public let id: Int64
    public let projectID: Int64
    public var kind: AuditSessionKind
    public var environment: AuditEnvironment
    public var inspection: InspectionConditions
    public let startedAt: Date
    public var endedAt: Date?
    public var notes: String

    public init(id: Int64, projectID: Int64, kind: AuditSessionKind, environment: AuditEnvironment,
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

    public var isOpen: Bool { endedAt == nil }
}
