import Foundation
import Shared

extension AuditQuestion {
    /// What an audit question found.
    package enum Answer: Sendable {
        /// Newest project first, each with its sessions newest first.
        case overview([(project: AuditProject, sessions: [AuditSession])], recording: AuditRecording?)
        case project(AuditProject, sessions: [AuditSession])
        case projects([AuditProject])
        case projectDeleted(AuditProject)
        case sessionDeleted(AuditSession, flowCount: Int)
        case sessions([AuditSession], projectNames: [Int64: String])
        case started(AuditRecording)
        case ended(AuditSession, projectName: String, flowCount: Int)
        case marked(SessionMarker, in: AuditRecording)
        case findings(AuditFindingsReport)
        case diff(ReleaseDiff, project: AuditProject)
        case report(AuditFindingsReport, generatedAt: Date)
        case exported(EvidenceExportResult)
    }

    /// Answers the question at `now` (a session's start or end, a marker's instant: taken first,
    /// before the history is opened, so the instant is the person's).
    package func answer(now: Date = Date()) async throws(QuestionFailure) -> Answer {
        switch action {
        case .overview:
            return try await Self.overview(dataDirectory)
        case let .createProject(draft):
            return try await AuditAccess.writing(dataDirectory) { store throws(QuestionFailure) in
                .project(try await Self.audit { () throws(AuditStoreError) in try await store.createAuditProject(draft, at: now) },
                         sessions: [])
            }
        case .listProjects:
            return try await AuditAccess.reading(dataDirectory) { store throws(QuestionFailure) in
                .projects(try await Self.audit { () throws(AuditStoreError) in try await store.auditProjects() })
            }
        case let .showProject(reference):
            return try await AuditAccess.reading(dataDirectory) { store throws(QuestionFailure) in
                let project = try await Self.resolve(reference, in: store)
                return .project(project, sessions: try await Self.audit { () throws(AuditStoreError) in
                    try await store.auditSessions(forProject: project.id)
                })
            }
        case let .editProject(reference, edit):
            return try await AuditAccess.writing(dataDirectory) { store throws(QuestionFailure) in
                let project = try await Self.resolve(reference, in: store)
                let draft = try edit.applied(to: project)
                return try await Self.audit { () throws(AuditStoreError) in
                    .project(try await store.updateAuditProject(id: project.id, with: draft),
                             sessions: try await store.auditSessions(forProject: project.id))
                }
            }
        case let .deleteProject(reference, confirmed):
            return try await AuditAccess.writing(dataDirectory) { store throws(QuestionFailure) in
                let project = try await Self.resolve(reference, in: store)
                let sessions = try await Self.audit { () throws(AuditStoreError) in try await store.auditSessions(forProject: project.id) }
                guard confirmed || sessions.isEmpty else {
                    throw QuestionFailure(.badParameter, "audit project delete: \(project.name) has \(sessions.count) session"
                                          + "\(sessions.count == 1 ? "" : "s"): deleting it deletes them and their markers (their "
                                          + "connections stay in the history, no longer kept as evidence); add --yes to delete")
                }
                try await Self.audit { () throws(AuditStoreError) in try await store.deleteAuditProject(id: project.id) }
                return .projectDeleted(project)
            }
        case let .deleteSession(id, confirmed):
            return try await AuditAccess.writing(dataDirectory) { store throws(QuestionFailure) in
                let (session, count) = try await Self.audit { () throws(AuditStoreError) in
                    guard let session = try await store.auditSession(id: id) else { throw .sessionNotFound(id) }
                    return (session, try await store.flowCount(inAuditSession: id))
                }
                guard confirmed else {
                    throw QuestionFailure(.badParameter, "audit delete: session \(id) and its markers go, and its \(count) connection"
                                          + "\(count == 1 ? " is" : "s are") no longer kept as evidence (they stay in the history); "
                                          + "add --yes to delete")
                }
                try await Self.audit { () throws(AuditStoreError) in try await store.deleteAuditSession(id: id) }
                return .sessionDeleted(session, flowCount: count)
            }
        case let .sessions(reference):
            return try await AuditAccess.reading(dataDirectory) { store throws(QuestionFailure) in
                let projects = try await Self.audit { () throws(AuditStoreError) in try await store.auditProjects() }
                var chosen = projects
                if let reference { chosen = [try await Self.resolve(reference, in: store)] }
                var sessions: [AuditSession] = []
                for project in chosen {
                    sessions += try await Self.audit { () throws(AuditStoreError) in try await store.auditSessions(forProject: project.id) }
                }
                sessions.sort { ($0.startedAt, $0.id) > ($1.startedAt, $1.id) }
                return .sessions(sessions, projectNames: Dictionary(projects.map { ($0.id, $0.name) }) { first, _ in first })
            }
        case let .start(request):
            let directory = HistoryAccess.dataDirectory(override: dataDirectory)
            let inspection = try Self.hostWideInspection(in: directory, caTrustStated: request.caTrustStated)
            return try await AuditAccess.writing(dataDirectory) { store throws(QuestionFailure) in
                .started(try await Self.start(request, inspection: inspection, at: now, in: store))
            }
        case let .end(id):
            return try await AuditAccess.writing(dataDirectory) { store throws(QuestionFailure) in
                try await Self.end(id, at: now, in: store)
            }
        case let .mark(kind):
            return try await AuditAccess.writing(dataDirectory) { store throws(QuestionFailure) in
                switch try await Self.audit({ () throws(AuditStoreError) in try await store.addMarkerToOpenSession(kind, at: now) }) {
                case let .placed(marker, recording): return .marked(marker, in: recording)
                case .noOpenSession:
                    throw QuestionFailure(.notFound, "no audit session is recording: the marker was not placed "
                                          + "(start one with 'tunnelvision audit record' or 'tunnelvision audit start')")
                }
            }
        case let .findings(id):
            return try await AuditAccess.reading(dataDirectory) { store throws(QuestionFailure) in
                .findings(try await AuditFindingsReport.of(session: id, in: store))
            }
        case let .report(id):
            return try await AuditAccess.reading(dataDirectory) { store throws(QuestionFailure) in
                .report(try await AuditFindingsReport.of(session: id, in: store), generatedAt: now)
            }
        case let .export(id, directory):
            let folder = URL(fileURLWithPath: directory ?? FileManager.default.currentDirectoryPath)
            return try await Self.export(id, to: folder, dataDirectory: dataDirectory, at: now)
        case let .diff(first, second):
            return try await AuditAccess.reading(dataDirectory) { store throws(QuestionFailure) in
                try await Self.diff(first, second, in: store)
            }
        }
    }

    /// Session `id`'s evidence bundle, written into `folder` (nothing left there on failure).
    package static func export(_ id: Int64, to folder: URL, dataDirectory: String?, at now: Date) async throws(QuestionFailure) -> Answer {
        let exporter = EvidenceExporter(dataDirectory: HistoryAccess.dataDirectory(override: dataDirectory))
        do {
            return .exported(try await exporter.export(sessionID: id, to: folder, exportedAt: now))
        } catch {
            let kind: QuestionFailure.Kind = switch error {
            case .sessionNotFound: .notFound
            case .sessionStillOpen: .badParameter
            default: .failed
            }
            throw QuestionFailure(kind, "audit export: \(error)")
        }
    }

    /// No history yet is no project yet: the overview of a new data directory is empty, not an error.
    static func overview(_ dataDirectory: String?) async throws(QuestionFailure) -> Answer {
        let store: FlowStore
        do throws(HistoryAccess.Failure) { store = try HistoryAccess.openStore(dataDirectory: dataDirectory) } catch {
            if error.isMissing { return .overview([], recording: nil) }
            throw QuestionFailure(error)
        }
        let result: Result<Answer, QuestionFailure>
        do throws(QuestionFailure) {
            result = .success(try await audit { () throws(AuditStoreError) in
                var projects: [(project: AuditProject, sessions: [AuditSession])] = []
                for project in try await store.auditProjects() {
                    projects.append((project, try await store.auditSessions(forProject: project.id)))
                }
                return .overview(projects, recording: try await store.auditRecording())
            })
        } catch {
            result = .failure(error)
        }
        await store.close()
        return try result.get()
    }

    /// Starts a session of `request`'s project with these conditions: for `audit start` (the
    /// service's) and `audit record` (one command's).
    package static func start(_ request: AuditSessionRequest, inspection: InspectionConditions, at now: Date,
                             in store: FlowStore) async throws(QuestionFailure) -> AuditRecording {
        let project = try await resolve(request.project, in: store)
        let draft = AuditSessionDraft(projectID: project.id, kind: request.kind, environment: AuditRecordingConditions.environment(),
                                      inspection: inspection, notes: request.notes)
        let session = try await audit { () throws(AuditStoreError) in try await store.startAuditSession(draft, at: now) }
        return AuditRecording(session: session, projectName: project.name)
    }

    /// `audit record`'s session, started in `dataDirectory`'s history (made if there is none yet)
    /// before the command runs.
    package static func record(_ request: AuditSessionRequest, inspection: InspectionConditions, dataDirectory: String?,
                              now: Date = Date()) async throws(QuestionFailure) -> AuditRecording {
        try await AuditAccess.writing(dataDirectory) { store throws(QuestionFailure) in
            try await start(request, inspection: inspection, at: now, in: store)
        }
    }

    /// Ends `audit record`'s session when its command has ended.
    package static func finish(_ id: Int64, dataDirectory: String?, now: Date = Date()) async throws(QuestionFailure) -> Answer {
        try await AuditAccess.writing(dataDirectory) { store throws(QuestionFailure) in try await end(id, at: now, in: store) }
    }

    /// Ends session `id`, or the open one when nil.
    package static func end(_ id: Int64?, at now: Date, in store: FlowStore) async throws(QuestionFailure) -> Answer {
        try await audit { () throws(AuditStoreError) in
            var chosen = id
            if chosen == nil { chosen = try await store.openAuditSession()?.id }
            guard let id = chosen else { throw AuditStoreError.sessionNotFound(0) }
            let session = try await store.endAuditSession(id: id, at: now)
            let name = try await store.auditProject(id: session.projectID)?.name ?? "project \(session.projectID)"
            return .ended(session, projectName: name, flowCount: try await store.flowCount(inAuditSession: id))
        } recovering: { error in
            if id == nil, case .sessionNotFound = error { return QuestionFailure(.notFound, "no audit session is recording: nothing to end") }
            return nil
        }
    }

    static func diff(_ first: Int64, _ second: Int64, in store: FlowStore) async throws(QuestionFailure) -> Answer {
        let (one, other) = try await audit { () throws(AuditStoreError) in
            guard let one = try await store.auditSession(id: first) else { throw .sessionNotFound(first) }
            guard let other = try await store.auditSession(id: second) else { throw .sessionNotFound(second) }
            return (one, other)
        }
        let project = try await resolve(.id(one.projectID), in: store)
        let flows = try await audit { () throws(AuditStoreError) in
            (try await store.allFlows(inAuditSession: first), try await store.allFlows(inAuditSession: second))
        }
        do {
            return .diff(try ReleaseDiff(between: one, flows: flows.0, and: other, flows: flows.1, project: project), project: project)
        } catch {
            throw QuestionFailure(.badParameter, "audit diff: \(error)")
        }
    }

    /// The project `reference` names; an ambiguous name is refused with the candidates' numbers.
    static func resolve(_ reference: ProjectReference, in store: FlowStore) async throws(QuestionFailure) -> AuditProject {
        switch reference {
        case let .id(id):
            guard let project = try await audit({ () throws(AuditStoreError) in try await store.auditProject(id: id) }) else {
                throw QuestionFailure(.notFound, "there is no audit project \(id) ('tunnelvision audit project list' lists them)")
            }
            return project
        case let .name(name):
            let matches = try await audit { () throws(AuditStoreError) in try await store.auditProjects() }.filter { $0.name == name }
            guard let project = matches.first else {
                throw QuestionFailure(.notFound, "there is no audit project named \(name) ('tunnelvision audit project list' lists them)")
            }
            guard matches.count == 1 else {
                throw QuestionFailure(.badParameter, "\(matches.count) audit projects are named \(name): use its number "
                                      + "(\(matches.map { String($0.id) }.joined(separator: ", ")))")
            }
            return project
        }
    }

    /// A host-wide session needs a running service; its inspection is the service's, and the CA
    /// counts as trusted when it is in the system's trust bundle or the person says so.
    static func hostWideInspection(in directory: URL, caTrustStated: Bool) throws(QuestionFailure) -> InspectionConditions {
        let report: ServiceReport
        do {
            report = ServiceReport(lockHeld: try ServiceLock.isHeld(in: directory), record: try ServiceRecordFile.read(in: directory))
        } catch {
            throw QuestionFailure(.failed, "audit start: the service's state cannot be read: \(error)")
        }
        guard report.runningPID != nil, let record = report.record else {
            throw QuestionFailure(.noTunnel, "audit start: no monitoring service is running on \(directory.path): start one with "
                                  + "'tunnelvision up …', or record around one command with 'tunnelvision audit record'")
        }
        return InspectionConditions(inspectionEnabled: record.inspect,
                                    caTrusted: record.inspect && (caTrustStated || AuditRecordingConditions.caInSystemTrust(dataDirectory: directory)))
    }

    /// `body`'s broken audit rules as question failures; `recovering` may word one its own way.
    static func audit<T>(_ body: () async throws(AuditStoreError) -> T,
                         recovering: (AuditStoreError) -> QuestionFailure? = { _ in nil }) async throws(QuestionFailure) -> T {
        do { return try await body() } catch { throw recovering(error) ?? QuestionFailure(error) }
    }
}
