import CSQLite
import Foundation

/// Audit projects and their allowlists (audit.md § Store API), in the history's own file.
extension FlowStore {
    /// Runs `body` on the open connection: what SQLite reports becomes `.store`, the rule `body`
    /// found broken is thrown as it is. A body that finds a rule broken writes nothing first.
    func audit<Value>(_ body: (SQLiteConnection) throws(SQLiteError) -> Result<Value, AuditStoreError>)
        throws(AuditStoreError) -> Value {
        let result: Result<Value, AuditStoreError>
        do { result = try sqlite(body) } catch { throw .store(error) }
        return try result.get()
    }

    /// A checked value of the store's: `StoreError.corruptRow` becomes `.store`.
    func auditRead<Value>(_ body: () throws(StoreError) -> Value) throws(AuditStoreError) -> Value {
        do { return try body() } catch { throw .store(error) }
    }

    package func createAuditProject(_ draft: AuditProjectDraft, at date: Date) throws(AuditStoreError) -> AuditProject {
        try Self.check(draft)
        let id = try audit { connection throws(SQLiteError) -> Result<Int64, AuditStoreError> in
            try connection.transaction { () throws(SQLiteError) -> Result<Int64, AuditStoreError> in
                let id = try connection.withStatement("""
                    INSERT INTO audit_projects (name, bundle_id, catalogue_version, created_at) VALUES (?1, ?2, ?3, ?4) RETURNING id
                    """) { insert throws(SQLiteError) in
                    insert.bind(draft.name, at: 1)
                    insert.bind(draft.bundleIdentifier, at: 2)
                    insert.bind(draft.catalogueVersion, at: 3)
                    insert.bind(EpochNanoseconds.first(notBefore: date), at: 4)
                    guard try insert.step() else { throw SQLiteError(code: SQLITE_ERROR, message: "the project insert returned no id") }
                    return insert.int64(at: 0)
                }
                try insertAllowlist(draft.allowlist, project: id, on: connection)
                return .success(id)
            }
        }
        guard let project = try auditProject(id: id) else { throw .projectNotFound(id) }
        return project
    }

    /// Every project, newest first.
    package func auditProjects() throws(AuditStoreError) -> [AuditProject] {
        let ids = try audit { connection throws(SQLiteError) in
            try connection.cached("SELECT id FROM audit_projects ORDER BY created_at DESC, id DESC") { statement throws(SQLiteError) in
                var ids: [Int64] = []
                while try statement.step() { ids.append(statement.int64(at: 0)) }
                return .success(ids)
            }
        }
        var projects: [AuditProject] = []
        for id in ids { if let project = try auditProject(id: id) { projects.append(project) } }
        return projects
    }

    /// The project with `id` and its allowlist in written order; nil when there is none.
    package func auditProject(id: Int64) throws(AuditStoreError) -> AuditProject? {
        let rows = try audit { connection throws(SQLiteError) -> Result<((String, String?, String?, Int64), [(String, String?)])?, AuditStoreError> in
            let head = try connection.cached("""
                SELECT name, bundle_id, catalogue_version, created_at FROM audit_projects WHERE id = ?1
                """) { statement throws(SQLiteError) in
                statement.bind(id, at: 1)
                return try statement.step()
                    ? (statement.text(at: 0) ?? "", statement.text(at: 1), statement.text(at: 2), statement.int64(at: 3)) : nil
            }
            guard let head else { return .success(nil) }
            let entries = try connection.cached("""
                SELECT pattern, note FROM audit_allowlist WHERE project_id = ?1 ORDER BY position
                """) { statement throws(SQLiteError) in
                statement.bind(id, at: 1)
                var entries: [(String, String?)] = []
                while try statement.step() { entries.append((statement.text(at: 0) ?? "", statement.text(at: 1))) }
                return entries
            }
            return .success((head, entries))
        }
        guard let (head, entries) = rows else { return nil }
        var allowlist: [AllowlistEntry] = []
        for (text, note) in entries {
            guard let pattern = try? DomainPattern(parsing: text) else {
                throw .store(.corruptRow("audit project \(id): allowlist pattern \(text)"))
            }
            allowlist.append(AllowlistEntry(pattern: pattern, note: note))
        }
        return AuditProject(id: id, name: head.0, bundleIdentifier: head.1, catalogueVersion: head.2, allowlist: allowlist,
                            createdAt: EpochNanoseconds.date(head.3))
    }

    /// Replaces the project's name, identifiers and whole allowlist. Its sessions are untouched:
    /// an old session is read against today's allowlist.
    package func updateAuditProject(id: Int64, with draft: AuditProjectDraft) throws(AuditStoreError) -> AuditProject {
        try Self.check(draft)
        try audit { connection throws(SQLiteError) -> Result<Void, AuditStoreError> in
            try connection.transaction { () throws(SQLiteError) -> Result<Void, AuditStoreError> in
                try connection.cached("""
                    UPDATE audit_projects SET name = ?2, bundle_id = ?3, catalogue_version = ?4 WHERE id = ?1
                    """) { update throws(SQLiteError) in
                    update.bind(id, at: 1)
                    update.bind(draft.name, at: 2)
                    update.bind(draft.bundleIdentifier, at: 3)
                    update.bind(draft.catalogueVersion, at: 4)
                    try update.step()
                }
                guard connection.changes == 1 else { return .failure(.projectNotFound(id)) }
                try connection.cached("DELETE FROM audit_allowlist WHERE project_id = ?1") { delete throws(SQLiteError) in
                    delete.bind(id, at: 1)
                    try delete.step()
                }
                try insertAllowlist(draft.allowlist, project: id, on: connection)
                return .success(())
            }
        }
        guard let project = try auditProject(id: id) else { throw .projectNotFound(id) }
        return project
    }

    /// Deletes the project with its allowlist, sessions and markers; its flows stay in the history,
    /// untagged, and lose the exemption from the storage limits.
    package func deleteAuditProject(id: Int64) throws(AuditStoreError) {
        try deleteAuditRow(of: "audit_projects", id: id, missing: .projectNotFound(id))
    }

    /// Deletes row `id` of `table` (the schema cascades or unsets what hangs on it); `missing`
    /// when there is no such row.
    func deleteAuditRow(of table: String, id: Int64, missing: AuditStoreError) throws(AuditStoreError) {
        try audit { connection throws(SQLiteError) -> Result<Void, AuditStoreError> in
            try connection.transaction { () throws(SQLiteError) -> Result<Void, AuditStoreError> in
                try connection.cached("DELETE FROM \(table) WHERE id = ?1") { delete throws(SQLiteError) in
                    delete.bind(id, at: 1)
                    try delete.step()
                }
                return connection.changes == 1 ? .success(()) : .failure(missing)
            }
        }
    }

    private static func check(_ draft: AuditProjectDraft) throws(AuditStoreError) {
        guard !draft.name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw .emptyProjectName }
        var seen = Set<String>()
        for entry in draft.allowlist where !seen.insert(entry.pattern.text).inserted {
            throw .duplicateAllowlistPattern(entry.pattern.text)
        }
    }

    private func insertAllowlist(_ entries: [AllowlistEntry], project: Int64, on connection: SQLiteConnection) throws(SQLiteError) {
        try connection.cached("""
            INSERT INTO audit_allowlist (project_id, position, pattern, note) VALUES (?1, ?2, ?3, ?4)
            """) { insert throws(SQLiteError) in
            for (position, entry) in entries.enumerated() {
                insert.bind(project, at: 1)
                insert.bind(Int64(position), at: 2)
                insert.bind(entry.pattern.text, at: 3)
                insert.bind(entry.note, at: 4)
                try insert.step()
                insert.reset()
            }
        }
    }
}
