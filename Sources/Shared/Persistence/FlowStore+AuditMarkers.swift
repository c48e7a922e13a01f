import CSQLite
import Foundation

/// Markers placed in audit sessions (audit.md § Store API, § Marking from outside the app).
extension FlowStore {
    /// Places `kind` in session `sessionID` at `date`. Only an open session takes markers, and not
    /// before its start.
    package func addMarker(_ kind: SessionMarkerKind, toSession sessionID: Int64, at date: Date) throws(AuditStoreError) -> SessionMarker {
        try Self.check(kind)
        let instant = EpochNanoseconds.first(notBefore: date)
        let id = try audit { connection throws(SQLiteError) -> Result<Int64, AuditStoreError> in
            try connection.transaction { () throws(SQLiteError) -> Result<Int64, AuditStoreError> in
                guard let session = try sessionRow(sessionID, on: connection) else { return .failure(.sessionNotFound(sessionID)) }
                guard session.endedAt == nil else { return .failure(.sessionAlreadyEnded(sessionID)) }
                guard instant >= session.startedAt else { return .failure(.dateBeforeSessionStart) }
                return .success(try insertMarker(kind, session: sessionID, at: instant, on: connection))
            }
        }
        return SessionMarker(id: id, sessionID: sessionID, date: EpochNanoseconds.date(instant), kind: kind)
    }

    /// Places `kind` in whichever session is open, reading and writing in one transaction, so a
    /// session ended meanwhile by another process is never marked.
    package func addMarkerToOpenSession(_ kind: SessionMarkerKind, at date: Date) throws(AuditStoreError) -> OpenSessionMarkerOutcome {
        try Self.check(kind)
        let instant = EpochNanoseconds.first(notBefore: date)
        let placed = try audit { connection throws(SQLiteError) -> Result<(Int64, AuditSessionRow)?, AuditStoreError> in
            try connection.transaction { () throws(SQLiteError) -> Result<(Int64, AuditSessionRow)?, AuditStoreError> in
                guard let open = try openSessionID(on: connection), let session = try sessionRow(open, on: connection) else {
                    return .success(nil)
                }
                guard instant >= session.startedAt else { return .failure(.dateBeforeSessionStart) }
                return .success((try insertMarker(kind, session: open, at: instant, on: connection), session))
            }
        }
        guard let (id, row) = placed else { return .noOpenSession }
        let session = try row.session()
        guard let project = try auditProject(id: session.projectID) else { throw .projectNotFound(session.projectID) }
        return .placed(SessionMarker(id: id, sessionID: session.id, date: EpochNanoseconds.date(instant), kind: kind),
                       in: AuditRecording(session: session, projectName: project.name))
    }

    /// The session's markers, chronological; `sessionNotFound` when there is no such session.
    package func markers(forSession sessionID: Int64) throws(AuditStoreError) -> [SessionMarker] {
        let rows = try audit { connection throws(SQLiteError) -> Result<[(Int64, Int64, Int64, String?)], AuditStoreError> in
            guard try sessionRow(sessionID, on: connection) != nil else { return .failure(.sessionNotFound(sessionID)) }
            return .success(try connection.cached("""
                SELECT id, ts, kind, label FROM audit_markers WHERE session_id = ?1 ORDER BY ts, id
                """) { statement throws(SQLiteError) in
                statement.bind(sessionID, at: 1)
                var rows: [(Int64, Int64, Int64, String?)] = []
                while try statement.step() {
                    rows.append((statement.int64(at: 0), statement.int64(at: 1), statement.int64(at: 2), statement.text(at: 3)))
                }
                return rows
            })
        }
        return try rows.map { row throws(AuditStoreError) in
            guard let kind = AuditSerialization.markerKind(code: row.2, label: row.3) else {
                throw .store(.corruptRow("audit marker \(row.0): kind \(row.2)"))
            }
            return SessionMarker(id: row.0, sessionID: sessionID, date: EpochNanoseconds.date(row.1), kind: kind)
        }
    }

    private static func check(_ kind: SessionMarkerKind) throws(AuditStoreError) {
        if case let .custom(label) = kind, label.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { throw .emptyMarkerLabel }
    }

    private func insertMarker(_ kind: SessionMarkerKind, session: Int64, at instant: Int64,
                              on connection: SQLiteConnection) throws(SQLiteError) -> Int64 {
        let stored = AuditSerialization.markerKind(kind)
        return try connection.cached("""
            INSERT INTO audit_markers (session_id, ts, kind, label) VALUES (?1, ?2, ?3, ?4) RETURNING id
            """) { insert throws(SQLiteError) in
            insert.bind(session, at: 1)
            insert.bind(instant, at: 2)
            insert.bind(stored.code, at: 3)
            insert.bind(stored.label, at: 4)
            guard try insert.step() else { throw SQLiteError(code: SQLITE_ERROR, message: "the marker insert returned no id") }
            return insert.int64(at: 0)
        }
    }
}
