#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import Linux
import Shared
import Testing
import TestSupport

/// `tunnelvision up --netns NAME --inspect`: a container behind the inspection lab's host (which
/// routes for it) reaches the lab's HTTPS server through a routed service that decrypts with the
/// person's CA — for a client that trusts that CA, and never for one that does not (its first
/// connection refuses our certificate, its next passes untouched). Needs root.
@Suite("up --inspect: a routed service that decrypts what trusts the person's CA", .serialized)
struct UpInspectTests {
    @Test("curl trusting the person's CA is inspected; curl trusting only the server's root refuses once, then passes untouched; the stop leaves the container as before")
    func decryptsOnlyWhatTrustsTheCA() throws {
        let lab = try InspectionLab()
        defer { lab.remove() }
        // The container: its only way out is the lab's host, which forwards to the server.
        let container = try NetworkNamespace.create(NamespaceName.make(prefix: "tvic"))
        defer { container.delete() }
        try container.ip(["link", "add", "c0", "type", "veth", "peer", "name", "h1", "netns", lab.lab.host.name])
        try container.ip(["link", "set", "lo", "up"])
        try container.ip(["link", "set", "c0", "addrgenmode", "none"])
        try lab.lab.host.ip(["link", "set", "h1", "addrgenmode", "none"])
        try container.ip(["addr", "add", "198.18.120.2/24", "dev", "c0"])
        try lab.lab.host.ip(["addr", "add", "198.18.120.1/24", "dev", "h1"])
        try container.ip(["link", "set", "c0", "up"])
        try lab.lab.host.ip(["link", "set", "h1", "up"])
        try container.ip(["route", "add", "default", "via", "198.18.120.1"])
        _ = try lab.lab.host.run(["sysctl", "-q", "-w", "net.ipv4.ip_forward=1"])
        try lab.lab.server.ip(["route", "add", "198.18.120.0/24", "via", Lab.hostIPv4])

        let up = Process()
        up.executableURL = try BuiltProduct.url("tunnelvision")
        up.arguments = ["up", "--netns", container.name, "--inspect", "--upstream-ca", lab.pki.root, "--foreground",
                        "--data-dir", lab.data.path]
        let output = Pipe(), errors = Pipe()
        up.standardOutput = output
        up.standardError = errors
        try up.run()
        defer { if up.isRunning { kill(up.processIdentifier, SIGKILL) }; up.waitUntilExit() }
        let live = SocketOwnerLookupTests.line(output.fileHandleForReading)
        #expect(live.hasPrefix("monitoring network namespace \(container.name)"), "\(live)")
        // A host-wide audit session around the service, the container's store said to trust the CA.
        func audit(_ words: [String]) throws -> (status: Int32, out: String, err: String) {
            try InspectionLab.tunnelvision(["audit"] + words + ["--data-dir", lab.data.path])
        }
        #expect(try audit(["project", "create", "Diary", "--allow", InspectionLab.host]).status == 0)
        let started = try audit(["start", "--project", "Diary", "--release", "1.0", "--ca-trusted", "--json"])
        #expect(started.status == 0, "\(started.err)")
        let session = try PythonJSON.value(started.out, "session.id")

        let ours = DataDirectoryLayout.caCertificate(in: lab.data).path
        func curl(trusting root: String) throws -> CommandOutput? {
            try? container.run(["curl", "-sS", "--max-time", "20", "--cacert", root, "--capath", lab.emptyDirectory.path]
                                + lab.resolve + ["-o", "/dev/null", "-w", "%{http_code}", "\(lab.url)/api.json"])
        }
        #expect(try curl(trusting: ours)?.standardOutput == "200", "a client trusting the person's CA")
        // Trusting only the server's own root: it refuses our leaf (curl's exit 60), then goes untouched.
        #expect(try curl(trusting: lab.pki.root) == nil, "the first connection of a client that does not trust the CA must fail")
        #expect(try curl(trusting: lab.pki.root)?.standardOutput == "200", "its next connection passes untouched")
        // Ended at once: what the service saw before the end but writes a moment later is still the session's.
        let ended = try audit(["end", "--json"])
        #expect(ended.status == 0, "\(ended.err)")

        try UpNamespaceTests.Site.stop(up, errors: errors)
        let statuses = try lab.flows().filter { ($0["remote"] as? [String: Any])?["port"] as? Int == 443 }
            .compactMap { $0["tlsStatus"] as? String }
        #expect(statuses.sorted() == ["inspected", "notInspectable", "notInspectable"], "\(statuses)")
        let findings = try audit(["findings", session, "--json"])
        #expect(try PythonJSON.value(findings.out, "session.inspection.supportsPinningEvidence") == "true", "\(findings.err)")
        let pinning = try PythonJSON.value(findings.out, "checks.pinning.findingFlowIDs")
        #expect(pinning.split(separator: ",").count == 3, "\(findings.out)")
        #expect(findings.out.contains("\"kind\":\"pinningAbsent\"") && findings.out.contains("\"kind\":\"pinningObserved\""),
                "\(findings.out)")
        #expect(try container.ip(["rule", "show"]).standardOutput.contains("29814") == false)
    }
}
