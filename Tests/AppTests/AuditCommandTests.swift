import Foundation
import TestSupport
import Testing
@testable import App
import Shared

/// `tunnelvision audit` through the built binary over a data directory of its own, its JSON read
/// by Python. Traffic is written by a store of the test's, as a tunnel's would be: the recording
/// itself (`audit record` around `run`) is the lab's end-to-end test.
@Suite(.serialized) struct AuditCommandTests {
    static func audit(_ arguments: [String], _ data: URL) throws -> (status: Int32, out: String, err: String) {
        try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["audit"] + arguments + ["--data-dir", data.path])
    }

    /// A TLS flow to `host` (TLS 1.2 from the ServerHello) at `seconds` from now, written by a
    /// tunnel's store.
    static func writeFlow(_ number: Int, host: String?, plainHTTP: Bool = false, into data: URL) async throws {
        let store = try FlowStore(dataDirectory: data, origin: "test tunnel")
        let key = FlowKey(proto: .tcp, source: IPEndpoint(address: IPAddress(ipv4: 0xC612_0002), port: UInt16(40_000 + number)),
                          destination: IPEndpoint(address: IPAddress(ipv4: 0xC612_0100 + UInt32(number)), port: plainHTTP ? 80 : 443))
        let now = MonotonicAnchor.now().uptimeNanoseconds
        var record = FlowRecord(key: key, firstSeen: now, tlsStatus: plainHTTP ? .plaintext : .encrypted)
        record.lastSeen = now
        record.packetCount = 1
        record.sni = host
        if plainHTTP {
            record.streamOpening = .httpRequest
        } else {
            record.streamOpening = .tlsHandshake
            record.serverTLS = .negotiated(NegotiatedTLS(version: .tls12, cipherSuite: TLSCipherSuite(rawValue: 0xC02F),
                                                         fromHelloRetryRequest: false, source: .serverHello))
        }
        try await store.upsertFlow(record)
        await store.close()
    }

    @Test("a project is made, shown, edited and listed; a bad pattern or a second open session is refused in words")
    func projects() throws {
        let data = TemporaryDirectory("audit-projects")
        let made = try Self.audit(["project", "create", "Diary", "--allow", "*.lab.test=the lab", "--allow", "api.example.org",
                                   "--json"], data.url)
        #expect(made.status == 0, "\(made.err)")
        #expect(try PythonJSON.value(made.out, "project.allowlist.0") == #"{"note": "the lab", "pattern": "*.lab.test"}"#)
        #expect(try PythonJSON.value(made.out, "project.catalogue") == "\"tr-03161-1_3.0\"")
        let bad = try Self.audit(["project", "create", "X", "--allow", "*.xn--bcher-kva.ch", "--allow", "bücher.ch"], data.url)
        #expect(bad.status == 2 && bad.err.contains("bücher.ch is not a host pattern"))
        let edited = try Self.audit(["project", "edit", "Diary", "--disallow", "api.example.org", "--allow", "cdn.example.org",
                                     "--json"], data.url)
        #expect(edited.status == 0, "\(edited.err)")
        #expect(try PythonJSON.value(edited.out, "project.allowlist") ==
                #"[{"note": "the lab", "pattern": "*.lab.test"}, {"note": null, "pattern": "cdn.example.org"}]"#)
        let missing = try Self.audit(["project", "edit", "1", "--disallow", "nowhere.example"], data.url)
        #expect(missing.status == 1 && missing.err.contains("nowhere.example is not in Diary's allowlist"))
        let listed = try Self.audit(["project", "list"], data.url)
        #expect(listed.out.contains("Diary  (2 allowed patterns)"))
        let start = try Self.audit(["start", "--project", "Diary", "--baseline"], data.url)
        #expect(start.status == 1 && start.err.contains("no monitoring service is running"))
        let nobody = try Self.audit(["mark", "consent"], data.url)
        #expect(nobody.status == 1 && nobody.err.contains("no audit session is recording: the marker was not placed"))
    }

    @Test("findings of a recorded session: cleartext, an unlisted host and activity before consent, with verdicts and never 'passed'")
    func findings() async throws {
        let data = TemporaryDirectory("audit-findings")
        _ = try Self.audit(["project", "create", "Diary", "--allow", "*.lab.test"], data.url)
        // `audit record`'s two ends, as the command calls them around `run`.
        let recording = try await AuditQuestion.record(AuditSessionRequest(project: .name("Diary"), kind: .audit(AppRelease(version: "1.0", build: "3"))),
                                                       inspection: InspectionConditions(inspectionEnabled: false, caTrusted: false),
                                                       dataDirectory: data.url.path)
        try await Self.writeFlow(1, host: "api.lab.test", plainHTTP: true, into: data.url)
        let mark = try Self.audit(["mark", "consent", "--json"], data.url)
        #expect(mark.status == 0, "\(mark.err)")
        #expect(try PythonJSON.value(mark.out, "marker.kind") == "\"consentGiven\"")
        #expect(try PythonJSON.value(mark.out, "session.id") == "\(recording.session.id)")
        try await Self.writeFlow(2, host: "tracker.example.com", into: data.url)
        try await Self.writeFlow(3, host: "cdn.lab.test", into: data.url)
        _ = try await AuditQuestion.finish(recording.session.id, dataDirectory: data.url.path)
        let report = try Self.audit(["findings", "\(recording.session.id)", "--json"], data.url)
        #expect(report.status == 0, "\(report.err)")
        let kinds = try PythonJSON.value(report.out, "findings")
        #expect(kinds.contains("cleartextTraffic") && kinds.contains("hostNotInAllowlist") && kinds.contains("activityBeforeConsent"))
        #expect(!kinds.contains("weakTLSVersion"))
        #expect(try PythonJSON.value(report.out, "flowCount") == "3")
        #expect(try PythonJSON.value(report.out, "requirements.0.id") == "\"O.Purp_3\"")
        #expect(try PythonJSON.value(report.out, "requirements.0.verdict") == "\"contradicted\"")
        let text = try Self.audit(["findings", "\(recording.session.id)"], data.url)
        #expect(text.out.contains("tracker.example.com") && !text.out.lowercased().contains("passed"))
        let sessions = try Self.audit(["sessions", "Diary"], data.url)
        #expect(sessions.out.contains("release 1.0+3"))
        let keep = try Self.audit(["project", "delete", "Diary"], data.url)
        #expect(keep.status == 2 && keep.err.contains("Diary has 1 session: deleting it deletes them"))

        // The report: HTML on standard output or in a file (never over one without --force), a PDF by Chromium.
        let html = try Self.audit(["report", "\(recording.session.id)"], data.url)
        #expect(html.status == 0 && html.out.hasPrefix("<!doctype html>"), "\(html.err)")
        #expect(html.out.contains("tracker.example.com") && html.out.contains("F1:") && !html.out.lowercased().contains("passed"))
        #expect(!html.out.contains("<script"))
        let file = data.url.appendingPathComponent("report.html").path
        #expect(try Self.audit(["report", "\(recording.session.id)", "-o", file], data.url).status == 0)
        let again = try Self.audit(["report", "\(recording.session.id)", "-o", file], data.url)
        #expect(again.status == 1 && again.err.contains("is already there: add --force"))
        let pdf = data.url.appendingPathComponent("report.pdf")
        let printed = try Self.audit(["report", "\(recording.session.id)", "-o", pdf.path, "--json"], data.url)
        #expect(printed.status == 0, "\(printed.err)")
        #expect(try PythonJSON.value(printed.out, "format") == "\"pdf\"")
        let bytes = try Data(contentsOf: pdf)
        #expect(bytes.starts(with: Array("%PDF-".utf8)) && bytes.count > 10_000)

        // Deleting the session: asked for first, then its connections stay, untagged.
        let unasked = try Self.audit(["delete", "\(recording.session.id)"], data.url)
        #expect(unasked.status == 2 && unasked.err.contains("its 3 connections are no longer kept as evidence"))
        let deleted = try Self.audit(["delete", "\(recording.session.id)", "--yes"], data.url)
        #expect(deleted.status == 0 && deleted.out.contains("its 3 connections stay in the history"), "\(deleted.err)")
        #expect(try Self.audit(["findings", "\(recording.session.id)"], data.url).status == 1)
        #expect(try Self.audit(["project", "delete", "Diary"], data.url).status == 0)
    }

    @Test("a release diff names the unexpected new domain first; a baseline or an open session is refused")
    func releaseDiff() async throws {
        let data = TemporaryDirectory("audit-diff")
        _ = try Self.audit(["project", "create", "Diary", "--allow", "*.lab.test"], data.url)
        func session(_ release: String, hosts: [String], first: Int) async throws -> Int64 {
            let recording = try await AuditQuestion.record(
                AuditSessionRequest(project: .id(1), kind: .audit(try AuditSessionRequest.release(release, command: "test"))),
                inspection: InspectionConditions(inspectionEnabled: false, caTrusted: false), dataDirectory: data.url.path)
            for (offset, host) in hosts.enumerated() { try await Self.writeFlow(first + offset, host: host, into: data.url) }
            _ = try await AuditQuestion.finish(recording.session.id, dataDirectory: data.url.path)
            return recording.session.id
        }
        let one = try await session("1.0", hosts: ["api.lab.test", "old.lab.test"], first: 1)
        let two = try await session("1.1+9", hosts: ["api.lab.test", "ads.example.net"], first: 10)
        let diff = try Self.audit(["diff", "\(two)", "\(one)", "--json"], data.url)
        #expect(diff.status == 0, "\(diff.err)")
        #expect(try PythonJSON.value(diff.out, "unexpectedNewDomains") == #"["ads.example.net"]"#)
        #expect(try PythonJSON.value(diff.out, "earlier.session") == "\(one)")
        let text = try Self.audit(["diff", "\(one)", "\(two)"], data.url)
        #expect(text.out.contains("Unexpected new domains (new and not on the allowlist):\n  ads.example.net"))
        #expect(text.out.contains("Gone:\n  old.lab.test"))
        let same = try Self.audit(["diff", "\(one)", "\(one)"], data.url)
        #expect(same.status == 2 && same.err.contains("audit diff:"))
    }

    @Test("the command line: record's options end where run's begin, and what follows CMD is CMD's")
    func parsing() throws {
        var words = ["--project", "Diary", "--release", "2.0+41", "--notes", "clean VM", "--inspect", "--", "curl", "--json"]
        let request = try AuditSessionRequest.parse(taking: &words, command: "audit record")
        #expect(request == AuditSessionRequest(project: .name("Diary"), kind: .audit(AppRelease(version: "2.0", build: "41")),
                                               notes: "clean VM"))
        #expect(words == ["--inspect", "--", "curl", "--json"])
        #expect(try AuditSessionRequest.release("3.1", command: "x") == AppRelease(version: "3.1", build: ""))
        #expect(throws: QuestionFailure.self) { var rest = ["--project", "1"]; _ = try AuditSessionRequest.parse(taking: &rest, command: "x") }
        #expect(throws: QuestionFailure.self) {
            var rest = ["--project", "1", "--baseline", "--release", "1"]
            _ = try AuditSessionRequest.parse(taking: &rest, command: "x")
        }
        #expect(try AuditQuestion.marker("consent") == .consentGiven)
        #expect(try AuditQuestion.marker("opened the diary") == .custom("opened the diary"))
        #expect(try AuditQuestion.parse(["end"]).action == .end(nil))
        #expect(throws: QuestionFailure.self) { _ = try AuditQuestion.parse(["findings", "x"]) }
    }
}
