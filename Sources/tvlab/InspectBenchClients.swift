import Bench
import Foundation
import Linux

/// The clients of `bench inspect` on each path, and the figure each reports. Every client runs
/// from the lab's host namespace: inside `tunnelvision run` (with or without `--inspect`), or
/// beside mitmdump, through it as its HTTPS proxy.
struct InspectBenchClients {
    let lab: InspectBenchLab
    /// The CA files of the clients outside `run --inspect` (`InspectBenchLab.trustBundle`): the
    /// system's roots and the lab's root, or mitmdump's CA; the latter nil when mitmdump is not running.
    let passthroughTrust: String
    let mitmproxyTrust: String?
    let largeBytes: Int
    let connections: Int

    /// What one inspected connection run left in the tunnel's `stats --json`.
    struct InspectionCounts {
        let terminationsOpened: Int
        let leavesMinted: Int?
    }

    /// curl's `speed_download` (bytes/s) for the large file over one fresh HTTP/1.1 connection.
    func throughput(_ path: InspectBenchPath) throws(Failure) -> Double {
        let curl = ["curl", "-sS", "--http1.1", "--max-time", "600", "-o", "/dev/null",
                    "-w", "%{speed_download} %{size_download} %{http_code}\\n"]
        let output = try client(path, curl + trust(path, curl: true) + [lab.url(InspectBenchLab.largeFile)], name: "curl",
                                limit: 660)
        let fields = output.split(whereSeparator: \.isWhitespace)
        guard fields.count == 3, let speed = Double(fields[0]), let size = Int(fields[1]) else {
            throw Failure("curl: unreadable report \(output.prefix(200).debugDescription)")
        }
        guard fields[2] == "200", size == largeBytes else {
            throw Failure("curl got HTTP \(fields[2]) and \(size) bytes, not 200 and \(largeBytes)")
        }
        return speed
    }

    /// `tls_connections.py`'s connections per second over `connections` sequential fresh TLS
    /// connections, and on the inspecting path the tunnel's counters afterwards.
    func connectionRate(_ path: InspectBenchPath) throws(Failure) -> (perSecond: Double, counts: InspectionCounts?) {
        let script = BenchScripts.script("tls_connections", InspectBenchLab.host, Lab.serverIPv4, String(InspectionNginx.port),
                                       InspectBenchLab.tinyFile, String(connections)) + trust(path, curl: false)
        let stats = lab.directory + "/stats.json"
        unlink(stats)
        // The counters are read inside the same run: they belong to that tunnel process.
        let argv = path == .inspect
            ? ["sh", "-c", Self.shellLine(script) + " && " + Self.shellLine([lab.tunnelvision, "stats", "--json", "--data-dir", lab.data])
                + " > " + Self.shellWord(stats)]
            : script
        let output = try client(path, argv, name: "tls_connections.py", limit: Double(connections) + 120)
        struct Report: Decodable { let connections: Int, perSecond: Double }
        let report: Report
        do { report = try JSONDecoder().decode(Report.self, from: Data(output.utf8)) } catch {
            throw Failure("tls_connections.py: unreadable report \(output.prefix(200).debugDescription)")
        }
        guard path == .inspect else { return (report.perSecond, nil) }
        return (report.perSecond, try Self.inspectionCounts(in: stats))
    }

    /// The trust each client needs, always the system's roots and one more: the inspecting
    /// tunnel's clients trust what `run --inspect` gives them (the person's CA in the command's
    /// system store); passthrough's the lab's root; mitmproxy's its own CA, and they reach the
    /// server through it.
    private func trust(_ path: InspectBenchPath, curl: Bool) -> [String] {
        switch path {
        case .inspect: return curl ? lab.resolve : []
        case .passthrough: return curl ? ["--cacert", passthroughTrust] + lab.resolve : ["--cafile", passthroughTrust]
        case .mitmproxy:
            let proxy = "127.0.0.1:\(InspectBenchLab.proxyPort)"
            return curl ? ["--cacert", mitmproxyTrust ?? "", "--proxy", "http://" + proxy] : ["--cafile", mitmproxyTrust ?? "", "--proxy", proxy]
        }
    }

    /// Runs `argv` on `path` and answers its standard output; a failure carries its error's tail.
    private func client(_ path: InspectBenchPath, _ argv: [String], name: String, limit: Double) throws(Failure) -> String {
        let output = lab.directory + "/client.out", errors = lab.directory + "/client.err"
        let command = switch path {
        case .inspect: lab.run(inspect: true, argv)
        case .passthrough: lab.run(inspect: false, argv)
        case .mitmproxy: lab.lab.host.command(argv)
        }
        let process = try BenchProcess(command, name: name, output: output, errors: errors)
        defer { process.stop() }
        let outcome = try process.wait(seconds: limit)
        guard outcome.succeeded else { throw Failure("\(name): \(outcome.summary)\(TunnelBenchClients.tail(of: errors))") }
        return BenchProcess.readText(output)
    }

    /// `terminationsOpened` and `leavesMinted` of the `inspection` group in a `stats --json` file.
    static func inspectionCounts(in path: String) throws(Failure) -> InspectionCounts {
        func find(_ node: Any) -> [String: Any]? {
            guard let object = node as? [String: Any] else { return nil }
            if let found = object["inspection"] as? [String: Any] { return found }
            return object.values.lazy.compactMap(find).first
        }
        guard let data = FileManager.default.contents(atPath: path), let parsed = try? JSONSerialization.jsonObject(with: data),
              let inspection = find(parsed), let opened = inspection["terminationsOpened"] as? Int else {
            throw Failure("tunnelvision stats --json gave no inspection counters (\(path))")
        }
        return InspectionCounts(terminationsOpened: opened, leavesMinted: inspection["leavesMinted"] as? Int)
    }

    static func shellLine(_ argv: [String]) -> String { argv.map(shellWord).joined(separator: " ") }

    static func shellWord(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
