import Foundation
import Testing
import TestSupport
@testable import Shared

private typealias F = StoreFixtures

/// The audit store's rules (audit.md § Store API, § Which session a flow belongs to, § Retention),
/// on real files. The "tunnel" and the "app" are two stores on one file, as they are two
/// processes in use.
@Suite struct AuditStoreTests {
    static let environment = AuditEnvironment(deviceModel: "QEMU Standard PC", osVersion: "Linux 6.1.0", toolVersion: "0.9.0")
    static let inspection = InspectionConditions(inspectionEnabled: true, caTrusted: true)

    private func pattern(_ text: String) throws -> DomainPattern { try DomainPattern(parsing: text) }

    private func project(_ store: FlowStore, _ name: String = "Therapy app", allowlist: [String] = ["*.lab.test"],
                         at seconds: Double = 0) async throws -> AuditProject {
        try await store.createAuditProject(
            AuditProjectDraft(name: name, bundleIdentifier: "org.example.therapy",
                              allowlist: try allowlist.map { AllowlistEntry(pattern: try pattern($0)) }),
            at: F.date(F.uptime(seconds)))
    }

    private func draft(_ project: AuditProject, _ kind: AuditSessionKind = .audit(AppRelease(version: "2.1", build: "7")))
        -> AuditSessionDraft {
        AuditSessionDraft(projectID: project.id, kind: kind, environment: Self.environment, inspection: Self.inspection,
                          notes: "clean machine")
    }

    // MARK: Projects

    @Test("a project reads back with its allowlist in written order, and projects list newest first")
    func projectsReadBack() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        let first = try await project(store, "First", allowlist: ["z.lab.test", "*.lab.test", "a.lab.test"], at: 1)
        let second = try await project(store, "Second", allowlist: [], at: 2)
        #expect(first.allowlist.map(\.pattern.text) == ["z.lab.test", "*.lab.test", "a.lab.test"])
        #expect(first.bundleIdentifier == "org.example.therapy" && first.createdAt == F.date(F.uptime(1)))
        #expect(try await store.auditProject(id: first.id) == first)
        #expect(try await store.auditProjects().map(\.name) == ["Second", "First"])
        #expect(try await store.auditProject(id: second.id + 100) == nil)
        await store.close()
    }

    @Test("a project needs a name and an allowlist that names no pattern twice")
    func projectRules() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        await #expect(throws: AuditStoreError.emptyProjectName) { _ = try await project(store, "  ") }
        await #expect(throws: AuditStoreError.duplicateAllowlistPattern("*.lab.test")) {
            _ = try await project(store, allowlist: ["*.lab.test", "api.lab.test", "*.LAB.test."])
        }
        #expect(try await store.auditProjects().isEmpty)
        await store.close()
    }

    @Test("editing a project replaces its allowlist wholesale and leaves its sessions alone")
    func editingReplacesTheAllowlist() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        let made = try await project(store, allowlist: ["a.lab.test", "b.lab.test"])
        let session = try await store.startAuditSession(draft(made), at: F.date(F.uptime(3)))
        let edited = try await store.updateAuditProject(id: made.id, with: AuditProjectDraft(
            name: "Renamed", allowlist: [AllowlistEntry(pattern: try pattern("b.lab.test"), note: "the API")]))
        #expect(edited.name == "Renamed" && edited.bundleIdentifier == nil)
        #expect(edited.allowlist == [AllowlistEntry(pattern: try pattern("b.lab.test"), note: "the API")])
        #expect(try await store.auditSessions(forProject: made.id) == [session])
        await #expect(throws: AuditStoreError.projectNotFound(made.id + 9)) {
            _ = try await store.updateAuditProject(id: made.id + 9, with: AuditProjectDraft(name: "x"))
        }
        await store.close()
    }

    // MARK: Sessions

    @Test("at most one session is open: the code names the one in the way, and the schema refuses a second even without the code")
    func oneOpenSession() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        let made = try await project(store)
        let open = try await store.startAuditSession(draft(made), at: F.date(F.uptime(1)))
        #expect(open.isOpen && open.kind.release == AppRelease(version: "2.1", build: "7"))
        await #expect(throws: AuditStoreError.sessionAlreadyOpen(open.id)) {
            _ = try await store.startAuditSession(draft(made, .baseline), at: F.date(F.uptime(2)))
        }
        // Another process's writer that skipped the check.
        let raw = try SQLiteConnection(path: F.databaseURL(in: directory).path, mode: .readWriteCreate)
        #expect(throws: SQLiteError.self) {
            try raw.execute("""
                INSERT INTO audit_sessions (project_id, kind, device_model, os_version, tool_version, inspection_enabled,
                    ca_trusted, started_at) VALUES (\(made.id), 0, 'm', 'o', 't', 0, 0, 1)
                """)
        }
        raw.close()
        let ended = try await store.endAuditSession(id: open.id, at: F.date(F.uptime(5)))
        #expect(!ended.isOpen && ended.endedAt == F.date(F.uptime(5)))
        let baseline = try await store.startAuditSession(draft(made, .baseline), at: F.date(F.uptime(6)))
        #expect(baseline.kind == .baseline && baseline.kind.release == nil)
        #expect(try await store.openAuditSession() == baseline)
        #expect(try await store.auditSessions(forProject: made.id).map(\.id) == [baseline.id, open.id])
        await store.close()
    }

    @Test("ending refuses an unknown session, an ended one, and an instant before its start")
    func endingRules() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        let made = try await project(store)
        let session = try await store.startAuditSession(draft(made), at: F.date(F.uptime(10)))
        await #expect(throws: AuditStoreError.sessionNotFound(session.id + 1)) {
            _ = try await store.endAuditSession(id: session.id + 1, at: F.date(F.uptime(11)))
        }
        await #expect(throws: AuditStoreError.dateBeforeSessionStart) {
            _ = try await store.endAuditSession(id: session.id, at: F.date(F.uptime(9)))
        }
        _ = try await store.endAuditSession(id: session.id, at: F.date(F.uptime(11)))
        await #expect(throws: AuditStoreError.sessionAlreadyEnded(session.id)) {
            _ = try await store.endAuditSession(id: session.id, at: F.date(F.uptime(12)))
        }
        await #expect(throws: AuditStoreError.projectNotFound(made.id + 1)) {
            _ = try await store.startAuditSession(AuditSessionDraft(projectID: made.id + 1, kind: .baseline,
                                                                    environment: Self.environment, inspection: Self.inspection),
                                                 at: F.date(F.uptime(13)))
        }
        await #expect(throws: AuditStoreError.projectNotFound(made.id + 1)) { _ = try await store.auditSessions(forProject: made.id + 1) }
        await store.close()
    }

    // MARK: Markers

    @Test("markers go only into an open session, not before its start, chronologically; a marker of one's own needs words")
    func markerRules() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        let made = try await project(store)
        let session = try await store.startAuditSession(draft(made), at: F.date(F.uptime(10)))
        let login = try await store.addMarker(.loggedIn, toSession: session.id, at: F.date(F.uptime(14)))
        let consent = try await store.addMarker(.consentGiven, toSession: session.id, at: F.date(F.uptime(12)))
        let custom = try await store.addMarker(.custom("opened the diary"), toSession: session.id, at: F.date(F.uptime(16)))
        await #expect(throws: AuditStoreError.emptyMarkerLabel) {
            _ = try await store.addMarker(.custom(" \n"), toSession: session.id, at: F.date(F.uptime(17)))
        }
        await #expect(throws: AuditStoreError.dateBeforeSessionStart) {
            _ = try await store.addMarker(.loggedOut, toSession: session.id, at: F.date(F.uptime(9)))
        }
        #expect(try await store.markers(forSession: session.id) == [consent, login, custom])
        _ = try await store.endAuditSession(id: session.id, at: F.date(F.uptime(20)))
        await #expect(throws: AuditStoreError.sessionAlreadyEnded(session.id)) {
            _ = try await store.addMarker(.loggedOut, toSession: session.id, at: F.date(F.uptime(21)))
        }
        await #expect(throws: AuditStoreError.sessionNotFound(session.id + 5)) { _ = try await store.markers(forSession: session.id + 5) }
        await store.close()
    }

    @Test("marking the open session from another process names the session and its project, or places nothing when none records")
    func markingTheOpenSession() async throws {
        let directory = TemporaryDirectory()
        let app = try F.store(in: directory)
        let elsewhere = try F.store(in: directory)
        #expect(try await elsewhere.addMarkerToOpenSession(.consentGiven, at: F.date(F.uptime(1))) == .noOpenSession)
        #expect(try await elsewhere.auditRecording() == nil)
        let made = try await project(app, "Diary")
        let session = try await app.startAuditSession(draft(made), at: F.date(F.uptime(2)))
        guard case let .placed(marker, recording) = try await elsewhere.addMarkerToOpenSession(.consentGiven, at: F.date(F.uptime(3))) else {
            Issue.record("no marker placed in an open session")
            return
        }
        #expect(marker.sessionID == session.id && marker.kind == .consentGiven && marker.date == F.date(F.uptime(3)))
        #expect(recording == AuditRecording(session: session, projectName: "Diary"))
        #expect(try await elsewhere.auditRecording() == recording)
        _ = try await app.endAuditSession(id: session.id, at: F.date(F.uptime(4)))
        #expect(try await elsewhere.addMarkerToOpenSession(.loggedOut, at: F.date(F.uptime(5))) == .noOpenSession)
        #expect(try await app.markers(forSession: session.id) == [marker])
        await app.close()
        await elsewhere.close()
    }

    // MARK: Tagging

    private func write(_ store: FlowStore, _ key: FlowKey, from first: Double, to last: Double, packets: [Double] = [],
                       capture: (Double) -> CaptureLocation? = { _ in nil }) async throws {
        try await store.write(FlowStoreBatch(
            flows: [F.record(key, firstSeen: F.uptime(first), lastSeen: F.uptime(last), packets: UInt64(packets.count))],
            packets: packets.map { F.packet(key, at: F.uptime($0), capture: capture($0)) }))
    }

    private func tagsOf(_ store: FlowStore) async throws -> [FlowKey: Int64?] {
        Dictionary(uniqueKeysWithValues: try await store.recentFlows(limit: 100).map { ($0.key, $0.auditSessionID) })
    }

    @Test("the four tagging rules: written during a session, seen again during it, never moved, no traffic while open")
    func theFourTaggingRules() async throws {
        let directory = TemporaryDirectory()
        let tunnel = try F.store(in: directory)
        let app = try F.store(in: directory)
        let made = try await project(app)
        let (earlier, during, lateFact, quiet) = (F.key(1), F.key(2), F.key(3), F.key(4))
        // Before the session (which starts at 10).
        try await write(tunnel, earlier, from: 1, to: 2, packets: [1, 2])
        try await write(tunnel, lateFact, from: 1, to: 3, packets: [1, 3])
        try await write(tunnel, quiet, from: 1, to: 4, packets: [4])
        let first = try await app.startAuditSession(draft(made), at: F.date(F.uptime(10)))
        // Rule 1: first written while the session is open.
        try await write(tunnel, during, from: 11, to: 11, packets: [11])
        // Rule 2: begun before, seen again during it.
        try await write(tunnel, earlier, from: 1, to: 12, packets: [12])
        // Rule 4: written again during it for a fact, its traffic all before the start.
        var fact = F.record(lateFact, firstSeen: F.uptime(1), lastSeen: F.uptime(3))
        fact.resolvedName = ResolvedFlowName(name: "late.lab.test")
        try await tunnel.write(FlowStoreBatch(flows: [fact]))
        var tags = try await tagsOf(tunnel)
        #expect(tags[during] == first.id && tags[earlier] == first.id)
        #expect(tags[lateFact] == .some(nil) && tags[quiet] == .some(nil))
        // Rule 3: the next session never takes a tagged flow.
        _ = try await app.endAuditSession(id: first.id, at: F.date(F.uptime(13)))
        let second = try await app.startAuditSession(draft(made, .baseline), at: F.date(F.uptime(14)))
        try await write(tunnel, during, from: 11, to: 15, packets: [15])
        try await write(tunnel, quiet, from: 1, to: 16, packets: [16])
        tags = try await tagsOf(tunnel)
        #expect(tags[during] == first.id && tags[quiet] == second.id && tags[lateFact] == .some(nil))
        #expect(try await app.flowCount(inAuditSession: first.id) == 2)
        // Deleting a session untags its flows and stops tagging.
        try await app.deleteAuditSession(id: second.id)
        try await write(tunnel, F.key(5), from: 17, to: 17, packets: [17])
        tags = try await tagsOf(tunnel)
        #expect(tags[quiet] == .some(nil) && tags[F.key(5)] == .some(nil) && tags[during] == first.id)
        await #expect(throws: AuditStoreError.sessionNotFound(second.id)) { _ = try await app.markers(forSession: second.id) }
        await tunnel.close()
        await app.close()
    }

    @Test("traffic seen before a session's end is still its evidence when the tunnel writes it just after; long after, it is not")
    func lateWritesWithinTheGrace() async throws {
        let directory = TemporaryDirectory()
        let app = try F.store(in: directory)
        let made = try await project(app)
        let session = try await app.startAuditSession(draft(made), at: F.date(F.uptime(10)))
        _ = try await app.endAuditSession(id: session.id, at: F.date(F.uptime(20)))
        // Tunnels whose writes happen at a chosen instant (their clock, ns since 1970).
        func tunnel(writingAt seconds: Double) throws -> FlowStore {
            let instant = F.anchor.nanosecondsSince1970(forUptime: F.uptime(seconds))
            return try FlowStore(databaseURL: F.databaseURL(in: directory), anchor: F.anchor, writerClock: { instant })
        }
        let prompt = try tunnel(writingAt: 21)
        try await write(prompt, F.key(1), from: 18, to: 19.5, packets: [18, 19.5])    // seen before the end, written 1 s after
        try await write(prompt, F.key(2), from: 19, to: 20.5, packets: [20.5])         // began before the end, went on past it
        let late = try tunnel(writingAt: 20 + 11)
        try await write(late, F.key(3), from: 19, to: 19.9, packets: [19.9])           // written 11 s after: an old capture
        var tags = try await tagsOf(prompt)
        #expect(tags[F.key(1)] == session.id && tags[F.key(2)] == session.id)
        #expect(tags[F.key(3)] == .some(nil))
        // The next session does not take what went before it.
        let next = try await app.startAuditSession(draft(made), at: F.date(F.uptime(30)))
        try await write(late, F.key(4), from: 29, to: 29.5, packets: [29])
        try await write(late, F.key(5), from: 29, to: 31, packets: [31])
        tags = try await tagsOf(late)
        #expect(tags[F.key(4)] == .some(nil) && tags[F.key(5)] == next.id)
        for store in [app, prompt, late] { await store.close() }
    }

    @Test("a session's flows come first seen first, page after page, and deleting its project untags them")
    func evidenceFlowsInOrder() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        let made = try await project(store)
        let session = try await store.startAuditSession(draft(made), at: F.date(F.uptime(10)))
        // Written out of first-seen order; two share a first sighting.
        for (number, first) in [(1, 14.0), (2, 11), (3, 12), (4, 11), (5, 13)] {
            try await write(store, F.key(number), from: first, to: first + 1, packets: [first])
        }
        let all = try await store.allFlows(inAuditSession: session.id, pageSize: 2)
        #expect(all.map(\.key) == [2, 4, 3, 5, 1].map { F.key($0) })
        #expect(try await store.auditFlowCount() == 5)
        try await store.deleteAuditProject(id: made.id)
        #expect(try await store.auditFlowCount() == 0)
        #expect(try await store.flowCount() == 5)
        #expect(try await store.auditSession(id: session.id) == nil)
        await #expect(throws: AuditStoreError.sessionNotFound(session.id)) { _ = try await store.flows(inAuditSession: session.id, limit: 5) }
        await #expect(throws: AuditStoreError.projectNotFound(made.id)) { try await store.deleteAuditProject(id: made.id) }
        await store.close()
    }

    // MARK: Retention

    @Test("pruning by age keeps every flow of a session, open or ended, until the session is deleted")
    func evidenceIsExemptFromPruning() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        let made = try await project(store)
        try await write(store, F.key(1), from: 1, to: 2, packets: [1, 2])
        let ended = try await store.startAuditSession(draft(made), at: F.date(F.uptime(3)))
        try await write(store, F.key(2), from: 4, to: 5, packets: [4, 5])
        _ = try await store.endAuditSession(id: ended.id, at: F.date(F.uptime(6)))
        let open = try await store.startAuditSession(draft(made), at: F.date(F.uptime(7)))
        try await write(store, F.key(3), from: 8, to: 9, packets: [8])
        #expect(try await store.prune(before: F.date(F.uptime(100))) == 1)
        #expect(Set(try await store.recentFlows(limit: 10).map(\.key)) == [F.key(2), F.key(3)])
        // The kept activity counts lose only the pruned flow's packets.
        let counts = try await store.packetCounts(fromSecond: 0, toSecond: 4_000_000_000, bucketSeconds: 604_800)
        #expect(counts.map(\.packetCount).reduce(0, +) == 3)
        try await store.deleteAuditSession(id: ended.id)
        #expect(try await store.prune(before: F.date(F.uptime(100))) == 1)
        #expect(try await store.recentFlows(limit: 10).map(\.key) == [F.key(3)])
        _ = open
        await store.close()
    }

    @Test("the evidence's capture files are the files holding its captured packets: never file 0 for a packet never captured")
    func evidenceFileSequences() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        let made = try await project(store)
        let location = { (file: UInt32) in { (second: Double) in CaptureLocation(fileSequence: file, recordOffset: UInt64(24 + second)) } }
        try await write(store, F.key(1), from: 1, to: 1, packets: [1], capture: location(1))
        let first = try await store.startAuditSession(draft(made), at: F.date(F.uptime(2)))
        try await write(store, F.key(2), from: 3, to: 3, packets: [3], capture: location(2))
        try await write(store, F.key(3), from: 4, to: 4, packets: [4])
        try await write(store, F.key(2), from: 3, to: 5, packets: [5], capture: location(4))
        _ = try await store.endAuditSession(id: first.id, at: F.date(F.uptime(6)))
        let second = try await store.startAuditSession(draft(made), at: F.date(F.uptime(7)))
        try await write(store, F.key(4), from: 8, to: 8, packets: [8], capture: location(5))
        try await write(store, F.key(5), from: 9, to: 9, packets: [9], capture: location(6))
        _ = try await store.endAuditSession(id: second.id, at: F.date(F.uptime(10)))
        #expect(try await store.captureFileSequences(inAuditSession: first.id) == [2, 4])
        #expect(try await store.captureFileSequences(inAuditSession: second.id) == [5, 6])
        #expect(try await store.auditEvidenceFileSequences() == [2, 4, 5, 6])
        try await store.deleteAuditSession(id: second.id)
        #expect(try await store.auditEvidenceFileSequences() == [2, 4])
        await store.close()
    }

    @Test("clearing the history deletes evidence flows but keeps projects, sessions and markers")
    func clearingKeepsTheAudit() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        let made = try await project(store)
        let session = try await store.startAuditSession(draft(made), at: F.date(F.uptime(1)))
        let marker = try await store.addMarker(.consentGiven, toSession: session.id, at: F.date(F.uptime(2)))
        try await write(store, F.key(1), from: 3, to: 3, packets: [3])
        #expect(try await store.auditFlowCount() == 1)
        try await store.clearAll()
        #expect(try await store.auditFlowCount() == 0)
        #expect(try await store.auditProjects() == [made])
        #expect(try await store.openAuditSession() == session)
        #expect(try await store.markers(forSession: session.id) == [marker])
        await store.close()
    }

    // MARK: Migration

    @Test("a history of the schema before the audit's gains its tables and loses nothing")
    func migrationFromTheSchemaBefore() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        for number in 1...3 { try await write(store, F.key(number), from: Double(number), to: Double(number) + 1, packets: [Double(number)]) }
        let before = try await store.recentFlows(limit: 10)
        await store.close()
        let previous = 12                                                   // the audit's tables came with 13
        let old = try SQLiteConnection(path: F.databaseURL(in: directory).path, mode: .readWriteCreate)
        try old.execute("\(F.droppingColumnsAdded(after: previous)) PRAGMA user_version = \(previous)")
        #expect(try old.integer("SELECT count(*) FROM sqlite_master WHERE name LIKE 'audit_%'") == 0)
        old.close()
        let upgraded = try F.store(in: directory)
        let after = try await upgraded.recentFlows(limit: 10)
        #expect(after == before && after.allSatisfy { $0.auditSessionID == nil })
        let made = try await project(upgraded)
        let session = try await upgraded.startAuditSession(draft(made), at: F.date(F.uptime(20)))
        try await write(upgraded, F.key(1), from: 1, to: 21, packets: [21])
        #expect(try await upgraded.flowCount(inAuditSession: session.id) == 1)
        await upgraded.close()
    }
}
