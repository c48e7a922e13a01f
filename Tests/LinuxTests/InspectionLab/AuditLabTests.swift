import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// An assessment as a person runs one (audit.md): a project allowing `*.lab.test` and
/// `secure.test`, `audit record` around real curl under `--inspect` — plain HTTP, TLS 1.2 and 1.3
/// to an allowed and an unlisted host, a client that pins, a request before the consent marker —
/// and the findings that traffic implies, exactly; then a second release and the diff. Needs root.
@Suite("an audit session end to end", .serialized)
struct AuditLabTests {
    static let unlisted = "tracker.example"

    /// `tunnelvision audit record … -- sh -c SCRIPT` in the lab's host namespace.
    static func record(_ lab: InspectionLab, release: String, script: String) throws -> (status: Int32, out: String, err: String) {
        let tunnelvision = try BuiltProduct.url("tunnelvision")
        let ip = URL(fileURLWithPath: ExternalCommand.locate("ip") ?? "/usr/sbin/ip")
        return try BuiltProduct.run(ip, lab.lab.host.command(
            ["env", "HOME=\(lab.home.path)", tunnelvision.path, "audit", "record", "--data-dir", lab.data.path, "--project", "Diary",
             "--release", release, "--json", "--inspect", "--upstream-ca", lab.pki.root, "--", "sh", "-c", script]).dropFirst().map { $0 })
    }

    static func audit(_ lab: InspectionLab, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try InspectionLab.tunnelvision(["audit"] + arguments + ["--data-dir", lab.data.path])
    }

    @Test("audit record around curl: exactly the findings its traffic implies, verdicts against them, and a release diff")
    func aSessionsFindingsAreWhatItsTrafficImplies() throws {
        let lab = try InspectionLab()
        defer { lab.remove() }
        let www = lab.file("plain")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        try Data("plain".utf8).write(to: www.appendingPathComponent("index.html"))
        let web = try LabScripts.start([LabScripts.python, "-m", "http.server", "80", "--bind", Lab.serverIPv4, "--directory", www.path],
                                       in: lab.lab.server)
        defer { LabScripts.stop(web) }
        try LabScripts.waitForListener(Lab.serverIPv4, 80, from: lab.lab.host)
        let made = try Self.audit(lab, ["project", "create", "Diary", "--allow", "*.lab.test", "--allow", "secure.test"])
        #expect(made.status == 0, "\(made.err)")

        let tunnelvision = try BuiltProduct.url("tunnelvision").path
        let curl = "curl -sS --max-time 30 -o /dev/null"
        let secure = "--resolve \(InspectionLab.host):443:\(Lab.serverIPv4) \(lab.url)/api.json"
        let tracker = "-k --resolve \(Self.unlisted):443:\(Lab.serverIPv4) https://\(Self.unlisted)/api.json"
        let pinning = "--cacert \(lab.pki.root) --capath \(lab.emptyDirectory.path)"
        let first = try Self.record(lab, release: "1.0+3", script: """
            \(curl) --tls-max 1.2 \(secure); echo "before=$?"; \
            \(tunnelvision) audit mark consent --data-dir \(lab.data.path) >/dev/null; echo "marked=$?"; \
            \(curl) \(secure); echo "inspected=$?"; \
            \(curl) --resolve plain.lab.test:80:\(Lab.serverIPv4) http://plain.lab.test/; echo "plain=$?"; \
            \(curl) \(tracker); echo "tracker13=$?"; \
            \(curl) --tls-max 1.2 \(tracker); echo "tracker12=$?"; \
            \(curl) \(pinning) \(secure); echo "pinning=$?"
            """)
        #expect(first.status == 0, "\(first.err)")
        for step in ["before=0", "marked=0", "inspected=0", "plain=0", "tracker13=0", "tracker12=0", "pinning=60"] {
            #expect(first.out.contains(step), "\(first.out)")
        }
        // Standard error holds the session's start and end as JSON lines.
        let session = try #require(first.err.split(separator: "\n").first { $0.hasPrefix("{\"session\"") }.map(String.init))
        let id = try PythonJSON.value(session, "session.id")

        let findings = try Self.audit(lab, ["findings", id, "--json"])
        #expect(findings.status == 0, "\(findings.err)")
        #expect(try PythonJSON.value(findings.out, "flowCount") == "6")
        let kinds = try PythonJSON.value(findings.out, "findings").data(using: .utf8).flatMap {
            try JSONSerialization.jsonObject(with: $0) as? [[String: Any]]
        } ?? []
        let summary = kinds.map { "\($0["kind"] as? String ?? "?") \($0["host"] as? String ?? "-") \(($0["flowIDs"] as? [Int])?.count ?? 0)" }
        #expect(summary == [
            "pinningAbsent secure.test 2",          // both flows the run's CA decrypted
            "activityBeforeConsent - 1",            // the TLS 1.2 fetch before the marker
            "cleartextTraffic - 1",                 // plain HTTP
            "unnamedFlow - 1",                      // plain HTTP has no announced name, and there was no DNS
            "hostNotInAllowlist \(Self.unlisted) 2",  // TLS 1.3 and 1.2, passed through
            "pinningObserved secure.test 1",        // the client that trusts only the lab's root
        ], "\(findings.out)")
        // TLS 1.2 and 1.3 both meet the catalogue's minimum: no weak-version finding.
        #expect(try PythonJSON.value(findings.out, "requirements.3.id") == "\"O.Ntwk_2\"")
        #expect(try PythonJSON.value(findings.out, "requirements.3.verdict") == "\"observedWithoutContradiction\"")
        #expect(try PythonJSON.value(findings.out, "requirements.2.verdict") == "\"contradicted\"")   // O.Ntwk_1: cleartext
        #expect(try PythonJSON.value(findings.out, "session.inspection.supportsPinningEvidence") == "true")

        // The evidence bundle, read by outside readers: sha256sum, tshark, Python's zipfile, csv and json.
        let bundles = lab.file("bundles")
        let exported = try Self.audit(lab, ["export", id, "-o", bundles.path, "--json"])
        #expect(exported.status == 0, "\(exported.err)")
        let zip = try PythonJSON.value(exported.out, "file").trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        #expect(URL(fileURLWithPath: zip).lastPathComponent.hasPrefix("tunnelvision-evidence-session-\(id)-"))
        let unpacked = lab.file("unpacked")
        let check = try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", """
            import csv, hashlib, json, subprocess, sys, zipfile
            archive = zipfile.ZipFile(sys.argv[1]); assert archive.testzip() is None
            archive.extractall(sys.argv[2])
            folder = sys.argv[2] + "/" + archive.namelist()[0].rstrip("/")
            manifest = json.load(open(folder + "/manifest.json"))
            names = sorted(entry["name"] for entry in manifest["files"])
            assert names == ["capture.json", "capture.pcapng", "findings.json", "flows.csv", "flows.json", "session.json"], names
            for entry in manifest["files"]:
                digest = subprocess.run(["sha256sum", folder + "/" + entry["name"]], capture_output=True, text=True).stdout.split()[0]
                assert digest == entry["sha256"], entry
            flows = json.load(open(folder + "/flows.json")); json.load(open(folder + "/findings.json")); json.load(open(folder + "/session.json"))
            rows = list(csv.reader(open(folder + "/flows.csv", newline="", encoding="utf-8")))
            assert len(rows) == 7, len(rows)
            print(folder)
            """, zip, unpacked.path])
        #expect(check.status == 0, "\(check.err)")
        let folder = URL(fileURLWithPath: check.out.trimmingCharacters(in: .whitespacesAndNewlines))
        let comments = try Tshark.fields(["frame.comment"], of: folder.appendingPathComponent("capture.pcapng"))
        #expect(!comments.isEmpty && comments.allSatisfy { $0["frame.comment"]?.first?.hasPrefix("flow=") == true }, "\(comments.prefix(3))")
        #expect(comments.contains { $0["frame.comment"]?.first?.contains(" findings=F") == true })

        // The next release reaches one more unlisted host and no longer the plain one.
        let second = try Self.record(lab, release: "1.1+4", script: """
            \(curl) \(secure); \(curl) -k --resolve ads.example.net:443:\(Lab.serverIPv4) https://ads.example.net/api.json; \
            \(curl) \(tracker); true
            """)
        #expect(second.status == 0, "\(second.err)")
        let later = try PythonJSON.value(try #require(second.err.split(separator: "\n").first { $0.hasPrefix("{\"session\"") }.map(String.init)),
                                         "session.id")
        let diff = try Self.audit(lab, ["diff", id, later, "--json"])
        #expect(diff.status == 0, "\(diff.err)")
        #expect(try PythonJSON.value(diff.out, "unexpectedNewDomains") == #"["ads.example.net"]"#, "\(diff.out)")
    }
}
