import CSQLite
import Foundation

/// Audit sessions and their markers (audit.md § Store API). At most one session is open: the code
/// says which one is in the way, and the schema's partial unique index holds it even against a
/// writer that skipped the check.
extension FlowStore {
    static let auditSessionColumns = """
        id, project_id, kind, app_version, build_number, device_model, os_version, tool_version,
        inspection_enabled, ca_trusted, started_at, ended_at, notes
        """

    /// Starts a session of `draft.projectID` at `date`; refused while another is open.
    package func startAuditSession(_ draft: AuditSessionDraft, at date: Date) throws(AuditStoreError) -> AuditSession {
        let started = EpochNanoseconds.first(notBefore: date)
        let id = try audit { connection throws(SQLiteError) -> Result<Int64, AuditStoreError> in
            try connection.transaction { () throws(SQLiteError) -> Result<Int64, AuditStoreError> in
                guard try projectExists(draft.projectID, on: connection) else { return .failure(.projectNotFound(draft.projectID)) }
                if let open = try openSessionID(on: connection) { return .failure(.sessionAlreadyOpen(open)) }
                return .success(try connection.withStatement("""
                    INSERT INTO audit_sessions (project_id, kind, app_version, build_number, device_model, os_version,
                        tool_version, inspection_enabled, ca_trusted, started_at, notes)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) RETURNING id
                    """) { insert throws(SQLiteError) in
                    insert.bind(draft.projectID, at: 1)
                    insert.bind(draft.kind.release == nil ? AuditSerialization.baselineKind : AuditSerialization.auditKind, at: 2)
                    insert.bind(draft.kind.release?.version, at: 3)
                    insert.bind(draft.kind.release?.build, at: 4)
                    insert.bind(draft.environment.deviceModel, at: 5)
                    insert.bind(draft.environment.osVersion, at: 6)
                    insert.bind(draft.environment.toolVersion, at: 7)
                    insert.bind(draft.inspection.inspectionEnabled ? 1 : 0, at: 8)
                    insert.bind(draft.inspection.caTrusted ? 1 : 0, at: 9)
                    insert.bind(started, at: 10)
                    insert.bind(draft.notes, at: 11)
                    guard try insert.step() else { throw SQLiteError(code: SQLITE_ERROR, message: "the session insert returned no id") }
                    return insert.int64(at: 0)
                })
            }
        }
        guard let session = try auditSession(id: id) else { throw .sessionNotFound(id) }
        return session
    }

    /// Ends session `id` at `date`. Its flows stay evidence, exempt from the storage limits, until
    /// it is deleted.
    package func endAuditSession(id: Int64, at date: Date) throws(AuditStoreError) -> AuditSession {
        let ended = EpochNanoseconds.first(notBefore: date)
        try audit { connection throws(SQLiteError) -> Result<Void, AuditStoreError> in
            try connection.transaction { () throws(SQLiteError) -> Result<Void, AuditStoreError> in
                guard let session = try sessionRow(id, on: connection) else { return .failure(.sessionNotFound(id)) }
                guard session.endedAt == nil else { return .failure(.sessionAlreadyEnded(id)) }
                guard ended >= session.startedAt else { return .failure(.dateBeforeSessionStart) }
                try connection.cached("UPDATE audit_sessions SET ended_at = ?2 WHERE id = ?1") { update throws(SQLiteError) in
                    update.bind(id, at: 1)
                    update.bind(ended, at: 2)
                    try update.step()
                }
                return .success(())
            }
        }
        guard let session = try auditSession(id: id) else { throw .sessionNotFound(id) }
        return session
    }

    /// Deletes session `id` with its markers; its flows stay in the history, untagged (the
    /// schema's `ON DELETE SET NULL`), and an open one stops tagging.
    package func deleteAuditSession(id: Int64) throws(AuditStoreError) {
        try deleteAuditRow(of: "audit_sessions", id: id, missing: .sessionNotFound(id))
    }

    /// The session recording now; nil when none is.
    package func openAuditSession() throws(AuditStoreError) -> AuditSession? {
        let row = try audit { connection throws(SQLiteError) in
            .success(try openSessionID(on: connection).flatMap { id throws(SQLiteError) in try sessionRow(id, on: connection) })
        }
        return try row.map { row throws(AuditStoreError) in try row.session() }
    }

    package func auditSession(id: Int64) throws(AuditStoreError) -> AuditSession? {
        let row = try audit { connection throws(SQLiteError) in .success(try sessionRow(id, on: connection)) }
        return try row.map { row throws(AuditStoreError) in try row.session() }
    }

    /// The project's sessions, newest first; `projectNotFound` when there is no such project.
    package func auditSessions(forProject projectID: Int64) throws(AuditStoreError) -> [AuditSession] {
        let rows = try audit { connection throws(SQLiteError) -> Result<[AuditSessionRow], AuditStoreError> in
            guard try projectExists(projectID, on: connection) else { return .failure(.projectNotFound(projectID)) }
            return .success(try connection.cached("""
                SELECT \(Self.auditSessionColumns) FROM audit_sessions WHERE project_id = ?1 ORDER BY started_at DESC, id DESC
                """) { statement throws(SQLiteError) in
                statement.bind(projectID, at: 1)
                var rows: [AuditSessionRow] = []
                while try statement.step() { rows.append(AuditSessionRow(reading: statement)) }
                return rows
            })
        }
        return try rows.map { row throws(AuditStoreError) in try row.session() }
    }

    /// The open session with its project's name; nil when none is recording.
    package func auditRecording() throws(AuditStoreError) -> AuditRecording? {
        guard let session = try openAuditSession() else { return nil }
        guard let project = try auditProject(id: session.projectID) else { throw .projectNotFound(session.projectID) }
        return AuditRecording(session: session, projectName: project.name)
    }

    func projectExists(_ id: Int64, on connection: SQLiteConnection) throws(SQLiteError) -> Bool {
        try connection.cached("SELECT 1 FROM audit_projects WHERE id = ?1") { statement throws(SQLiteError) in
            statement.bind(id, at: 1)
            return try statement.step()
        }
    }

    func openSessionID(on connection: SQLiteConnection) throws(SQLiteError) -> Int64? {
        try connection.cached("SELECT id FROM audit_sessions WHERE ended_at IS NULL") { statement throws(SQLiteError) in
            try statement.step() ? statement.int64(at: 0) : nil
        }
    }

    func sessionRow(_ id: Int64, on connection: SQLiteConnection) throws(SQLiteError) -> AuditSessionRow? {
        try connection.cached("SELECT \(Self.auditSessionColumns) FROM audit_sessions WHERE id = ?1") { statement throws(SQLiteError) in
            statement.bind(id, at: 1)
            return try statement.step() ? AuditSessionRow(reading: statement) : nil
        }
    }
}

/// An `audit_sessions` row as stored, even nonsense; `session()` is the checked value.
struct AuditSessionRow {
    var id: Int64, projectID: Int64, kind: Int64
    var appVersion: String?, buildNumber: String?
    var deviceModel: String?, osVersion: String?, toolVersion: String?
    var inspectionEnabled: Int64, caTrusted: Int64
    var startedAt: Int64, endedAt: Int64?
    var notes: String?

    init(reading statement: SQLiteStatement) {
        id = statement.int64(at: 0)
        projectID = statement.int64(at: 1)
        kind = statement.int64(at: 2)
        appVersion = statement.text(at: 3)
        buildNumber = statement.text(at: 4)
        deviceModel = statement.text(at: 5)
        osVersion = statement.text(at: 6)
        toolVersion = statement.text(at: 7)
        inspectionEnabled = statement.int64(at: 8)
        caTrusted = statement.int64(at: 9)
        startedAt = statement.int64(at: 10)
        endedAt = statement.optionalInt64(at: 11)
        notes = statement.text(at: 12)
    }

    func session() throws(AuditStoreError) -> AuditSession {
        let kind: AuditSessionKind
        switch (self.kind, appVersion, buildNumber) {
        case (AuditSerialization.baselineKind, _, _): kind = .baseline
        case let (AuditSerialization.auditKind, version?, build?): kind = .audit(AppRelease(version: version, build: build))
        default: throw .store(.corruptRow("audit session \(id): kind \(self.kind) with release \(appVersion ?? "none")"))
        }
        guard let deviceModel, let osVersion, let toolVersion, [0, 1].contains(inspectionEnabled), [0, 1].contains(caTrusted) else {
            throw .store(.corruptRow("audit session \(id): environment or inspection conditions"))
        }
        return AuditSession(id: id, projectID: projectID, kind: kind,
                            environment: AuditEnvironment(deviceModel: deviceModel, osVersion: osVersion, toolVersion: toolVersion),
                            inspection: InspectionConditions(inspectionEnabled: inspectionEnabled == 1, caTrusted: caTrusted == 1),
                            startedAt: EpochNanoseconds.date(startedAt), endedAt: endedAt.map(EpochNanoseconds.date),
                            notes: notes ?? "")
    }
}
