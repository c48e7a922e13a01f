import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// `tunnelvision diagnostics` against a real tunnel: `run` inside the lab's host namespace, whose
/// command looks a name up through the tunnel, fetches a page from it, and then asks for the
/// diagnosis while the tunnel is still live. Needs root.
@Suite("tunnelvision diagnostics", .serialized)
struct DiagnosticsCommandTests {
    @Test("a lookup and a connection to its answer: names from lookups says connections are named from them")
    func runningTunnel() throws {
        let lab = try Lab()
        defer { lab.remove() }
        let work = TemporaryDirectory("diagnostics")
        let www = work.url.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        try Data("diagnosed".utf8).write(to: www.appendingPathComponent("index.html"))
        let web = try LabScripts.start([LabScripts.python, "-m", "http.server", "8080", "--bind", Lab.serverIPv4,
                                        "--directory", www.path], in: lab.server)
        defer { LabScripts.stop(web) }
        let dns = try LabScripts.start(LabScripts.dnsResponder(bind: Lab.serverIPv4, answer: Lab.serverIPv4), in: lab.server)
        defer { LabScripts.stop(dns) }
        try LabScripts.waitForListener(Lab.serverIPv4, 8080, from: lab.host)
        // The lab's host namespace gets its own resolv.conf (never the machine's): the tunnel
        // announces the lab's DNS server to the command it monitors.
        let resolvConf = try NamespaceResolvConf(namespace: lab.host.name, servers: [IPAddress(parsing: Lab.serverIPv4)!])
        defer { resolvConf.remove() }

        let data = work.url.appendingPathComponent("data")
        let json = work.url.appendingPathComponent("diagnostics.json")
        let text = work.url.appendingPathComponent("diagnostics.txt")
        let tunnelvision = try BuiltProduct.url("tunnelvision").path
        let script = """
        curl -sS --max-time 20 -o /dev/null http://web.lab.test:8080/ || exit 70
        '\(tunnelvision)' diagnostics --data-dir '\(data.path)' --json > '\(json.path)' || exit 71
        '\(tunnelvision)' diagnostics --data-dir '\(data.path)' > '\(text.path)' || exit 72
        """
        let ip = try #require(URL(string: "file://" + (ExternalCommand.locate("ip") ?? "/usr/sbin/ip")))
        let result = try BuiltProduct.run(ip, Array(lab.host.command([tunnelvision, "run", "--data-dir", data.path, "--",
                                                                      "bash", "-c", script]).dropFirst()))
        #expect(result.status == 0, "\(result.err)")

        let document = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        #expect(document["monitoring"] as? Bool == true)
        // This build inspects nothing: the relay reports no inspection counters, which reads idle.
        #expect((document["headline"] as? [String: Any])?["verdict"] as? String == "idle")
        #expect(document["resolverNotice"] is NSNull)
        let sections = try #require(document["sections"] as? [[String: Any]])
        func section(_ key: String) -> [String: Any]? { sections.first { $0["key"] as? String == key } }
        func value(_ key: String) -> String? {
            sections.flatMap { ($0["rows"] as? [[String: Any]]) ?? [] }.first { $0["key"] as? String == key }?["value"] as? String
        }
        let lookups = try #require(section("namesFromLookups"))
        #expect((lookups["note"] as? String)?.hasPrefix("Connections are named from the lookups") == true)
        #expect(Int(value("namesFromLookups.connectionsNamed") ?? "") ?? 0 >= 1)
        #expect(Int(value("namesFromLookups.repliesRecorded") ?? "") ?? 0 >= 1)
        #expect(value("resolvers.announced") == Lab.serverIPv4)
        #expect(Int(value("resolvers.lookupsAnswered") ?? "") ?? 0 >= 1)
        #expect(Int(value("namesFromTCP.http") ?? "") ?? 0 >= 1)
        // Every reply the relay wrote back was read by the pipeline, as one of three outcomes.
        let read = ["repliesRecorded", "repliesIgnored", "unreadable"].compactMap { Int(value("namesFromLookups.\($0)") ?? "") }
        #expect(read.reduce(0, +) == Int(value("resolvers.lookupsAnswered") ?? ""))

        let printed = try String(contentsOf: text, encoding: .utf8)
        #expect(printed.hasPrefix("Nothing is being looked inside"))
        #expect(printed.contains("\nNames from lookups\n"))
        #expect(printed.contains("Connections are named from the lookups"))
    }

    @Test("with no tunnel running it says there is nothing to diagnose, exit status 1, and the JSON says not monitoring")
    func noTunnel() throws {
        let data = TemporaryDirectory("diagnostics-none")
        let tunnelvision = try BuiltProduct.url("tunnelvision")
        let human = try BuiltProduct.run(tunnelvision, ["diagnostics", "--data-dir", data.url.path])
        #expect(human.status == 1)
        #expect(human.err.contains("no tunnel is running on \(data.url.path): nothing to diagnose — the counters belong to a running session"))
        #expect(human.out.isEmpty)
        let json = try BuiltProduct.run(tunnelvision, ["diagnostics", "--data-dir", data.url.path, "--json"])
        #expect(json.status == 1)
        let document = try #require(JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(document["monitoring"] as? Bool == false)
        #expect((document["headline"] as? [String: Any])?["verdict"] as? String == "notMonitoring")
        #expect((document["sections"] as? [Any])?.isEmpty == true)
    }
}
