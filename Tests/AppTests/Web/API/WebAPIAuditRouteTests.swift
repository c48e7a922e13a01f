import Foundation
import Shared
import Testing
@testable import App

/// The Audit screen's routes: the overview, an action in `tunnelvision audit`'s own words, a
/// session's findings, a release diff — each the question the command asks, refused with its sentence.
struct WebAPIAuditRouteTests {
    typealias R = WebAPIRouteTests
    static let directory = ["--data-dir", R.directory]

    @Test("GET /api/audit is the overview; POST is the command's words, read by its parser")
    func overviewAndActions() throws {
        #expect(R.route("GET", "/api/audit") == .success(.audit(AuditQuestion(action: .overview, dataDirectory: R.directory))))
        let body = #"{"arguments": ["project", "create", "Diary", "--allow", "*.lab.test"]}"#
        let expected = try AuditQuestion.parse(Self.directory + ["project", "create", "Diary", "--allow", "*.lab.test"])
        #expect(R.route("POST", "/api/audit", body: body) == .success(.audit(expected)))
        #expect(R.route("POST", "/api/audit", body: #"{"arguments": ["mark", "consent"]}"#)
                == .success(.audit(AuditQuestion(action: .mark(.consentGiven), dataDirectory: R.directory))))
        #expect(R.refusal("POST", "/api/audit", body: #"{"arguments": ["project", "create", "X", "--allow", "a b"]}"#)?.message
                .hasPrefix("audit: a b is not a host pattern") == true)
        #expect(R.refusal("POST", "/api/audit", body: "consent")?.status == .badRequest)
        #expect(R.refusal("POST", "/api/audit", body: #"{"arguments": []}"#)?.message == "audit: the body's arguments name no action")
        #expect(R.refusal("DELETE", "/api/audit")?.status == .methodNotAllowed)
    }

    @Test("a session's findings and a release diff are audit findings and audit diff")
    func findingsAndDiff() throws {
        #expect(R.route("GET", "/api/audit/sessions/7/findings")
                == .success(.audit(AuditQuestion(action: .findings(7), dataDirectory: R.directory))))
        #expect(R.route("GET", "/api/audit/sessions/7/report")
                == .success(.audit(AuditQuestion(action: .report(7), dataDirectory: R.directory))))
        #expect(R.route("GET", "/api/audit/diff", [("earlier", "3"), ("later", "5")])
                == .success(.audit(AuditQuestion(action: .diff(3, 5), dataDirectory: R.directory))))
        #expect(R.refusal("GET", "/api/audit/sessions/x/findings")?.message == "audit findings: x is not a session's number")
        #expect(R.refusal("GET", "/api/audit/diff", [("earlier", "3")])?.message == "audit diff: which session? (its number, as 'audit sessions' shows)")
        #expect(R.refusal("GET", "/api/audit/diff", [("first", "3")])?.status == .badRequest)
    }
}
