import Foundation
import Testing
import Shared

/// The audit model's few rules (audit.md § Types, § Non-obvious rules).
@Suite struct AuditModelTests {
    static let environment = AuditEnvironment(deviceModel: "lab", osVersion: "Linux 6.1", toolVersion: "test")

    @Test("a project's allowlist answers with the first entry, in written order, that allows a host")
    func allowlistMatching() throws {
        let project = AuditProject(id: 1, name: "Health app", allowlist: [
            AllowlistEntry(pattern: try DomainPattern(parsing: "api.lab.test"), note: "the backend"),
            AllowlistEntry(pattern: try DomainPattern(parsing: "*.lab.test"), note: "the lab"),
        ], createdAt: Date(timeIntervalSince1970: 0))
        #expect(project.allowlistEntry(matching: "API.lab.test.")?.note == "the backend")
        #expect(project.allowlistEntry(matching: "cdn.eu.lab.test")?.note == "the lab")
        #expect(project.allowlistEntry(matching: "lab.test") == nil)
        #expect(project.allowlistEntry(matching: "tracker.example") == nil)
    }

    @Test("a baseline has no release, so it can never enter a release diff; an audit session has its own")
    func releases() {
        #expect(AuditSessionKind.baseline.release == nil)
        let release = AppRelease(version: "2.4.0", build: "311")
        #expect(AuditSessionKind.audit(release).release == release)
    }

    @Test("pinning can be told apart only with inspection on and its CA trusted", arguments: [
        (false, false, false), (true, false, false), (false, true, false), (true, true, true),
    ])
    func pinningEvidence(inspection: Bool, trusted: Bool, supports: Bool) {
        #expect(InspectionConditions(inspectionEnabled: inspection, caTrusted: trusted).supportsPinningEvidence == supports)
    }

    @Test("a session is open until it has an end")
    func openUntilEnded() {
        var session = AuditSession(id: 7, projectID: 1, kind: .baseline, environment: Self.environment,
                                   inspection: InspectionConditions(inspectionEnabled: false, caTrusted: false),
                                   startedAt: Date(timeIntervalSince1970: 100))
        #expect(session.isOpen)
        session.endedAt = Date(timeIntervalSince1970: 200)
        #expect(!session.isOpen)
    }
}
