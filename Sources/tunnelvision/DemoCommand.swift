#if canImport(Glibc)
import Glibc
#endif
import App
import Foundation
import Linux
import Shared

/// `tunnelvision demo`: the tunnel in a lab of namespaces, needing nothing outside the machine.
/// Real servers in the lab's server namespace (HTTP with a large file, a DNS responder, a UDP
/// echo), real clients in the monitored namespace (a download, 50 parallel requests, a lookup
/// by name, a UDP exchange), then the summary — and the lab removed, also after Ctrl-C.
enum DemoCommand {
    static let fileBytes = 20 << 20
    static let parallelRequests = 50
    static let demoName = "demo.tunnelvision.test"

    nonisolated(unsafe) static var interrupted: sig_atomic_t = 0

    static func run(dataDirectory override: String?, json: Bool) async -> Int32 {
        guard geteuid() == 0 else {
            printError("tunnelvision: demo needs root (it makes network namespaces and a TUN device): sudo tunnelvision demo")
            return 1
        }
        guard access("/dev/net/tun", F_OK) == 0 else {
            printError("tunnelvision: \(TUNError.deviceMissing)")
            return 1
        }
        guard ExternalCommand.locate("python3") != nil, ExternalCommand.locate("curl") != nil else {
            printError("tunnelvision: the demo's servers and clients need python3 and curl (apt-get install -y python3 curl)")
            return 1
        }
        signal(SIGINT) { _ in DemoCommand.interrupted = 1 }
        signal(SIGTERM) { _ in DemoCommand.interrupted = 1 }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("tunnelvision-demo-\(getpid())")
        defer { try? FileManager.default.removeItem(at: work) }
        do {
            return try await demo(in: work, dataDirectory: override, json: json)
        } catch {
            printError("tunnelvision: demo: \(error)")
            return 1
        }
    }

    private static func step(_ text: String) { printError("demo: \(text)") }

    private static func demo(in work: URL, dataDirectory override: String?, json: Bool) async throws -> Int32 {
        let data = override.map { URL(fileURLWithPath: $0) } ?? work.appendingPathComponent("data")
        let www = work.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        var random = SystemRandomNumberGenerator()
        try Data((0..<fileBytes).map { _ in UInt8.random(in: 0...255, using: &random) })
            .write(to: www.appendingPathComponent("large.bin"))
        try Data("hello from the lab\n".utf8).write(to: www.appendingPathComponent("index.txt"))

        step("building the lab (namespaces host, server and monitored; \(Lab.hostIPv4) ↔ \(Lab.serverIPv4))…")
        let lab = try Lab()
        defer { lab.remove(); step("lab removed") }
        let python = LabScripts.python
        let servers = [
            try LabScripts.start([python, "-m", "http.server", "8080", "--bind", Lab.serverIPv4, "--directory", www.path], in: lab.server),
            try LabScripts.start(LabScripts.dnsResponder(bind: Lab.serverIPv4, answer: Lab.serverIPv4), in: lab.server),
            try LabScripts.start(LabScripts.udpEcho(bind: Lab.serverIPv4, port: 7000), in: lab.server),
        ]
        defer { servers.forEach(LabScripts.stop) }
        try LabScripts.waitForListener(Lab.serverIPv4, 8080, from: lab.host)

        step("starting the tunnel (data in \(data.path))…")
        try DataDirectory.prepare(data)
        let device = try TUNDevice()
        defer { device.close() }
        try TunnelNamespacePlan.apply(device: device.name, namespace: lab.monitored.name)
        let resolvConf = try NamespaceResolvConf(namespace: lab.monitored.name, servers: [IPAddress(parsing: Lab.serverIPv4)!])
        defer { resolvConf.remove() }
        var options = TunnelSession.Options()
        options.captureDetail = .metadataOnly
        let session = try await TunnelSession(dataDirectory: data, device: device, options: options,
                                              relayNamespace: lab.host.name)
        let started = Date()

        var failures = 0
        func client(_ label: String, _ arguments: [String], expect check: (String) -> Bool) {
            guard DemoCommand.interrupted == 0 else { return }
            step(label)
            let output = try? lab.monitored.run(arguments)
            let ok = output.map { check($0.standardOutput) } ?? false
            if !ok { failures += 1 }
            step(ok ? "  ok" : "  FAILED")
        }
        let download = work.appendingPathComponent("download.bin")
        client("downloading \(fileBytes >> 20) MiB over HTTP…",
               ["curl", "-sS", "--max-time", "120", "-o", download.path, "-w", "%{size_download}",
                "http://\(Lab.serverIPv4):8080/large.bin"]) { $0 == "\(fileBytes)" }
        client("\(parallelRequests) requests in parallel…",
               LabScripts.parallelFetch("http://\(Lab.serverIPv4):8080/index.txt", count: parallelRequests,
                                                        expected: "hello from the lab\\n")) { $0 == "\(parallelRequests)\n" }
        client("looking up \(demoName) through the namespace's resolver…",
               [python, "-c", "import socket; print(socket.gethostbyname('\(demoName)'))"]) { $0 == "\(Lab.serverIPv4)\n" }
        client("a UDP exchange…", LabScripts.udpAsk(Lab.serverIPv4, port: 7000, message: "ping")) { $0 == "PING\n" }

        await session.stop()
        let flows = try await session.store.recentFlows(limit: 1_000, before: nil).filter { $0.lastSeen >= started.addingTimeInterval(-1) }
        let summary = RunSummary(command: "tunnelvision demo", exitStatus: failures == 0 ? 0 : 1, signal: nil,
                                 connections: flows.reversed().map { RunSummary.Connection($0) },
                                 captureFiles: (session.capture?.captureFiles() ?? []).map {
                                     RunSummary.CaptureFile(path: $0.path, bytes: UInt64((try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int) ?? 0))
                                 },
                                 databasePath: DataDirectoryLayout.database(in: data).path)
        print(json ? summary.json() : summary.text())
        if DemoCommand.interrupted != 0 {
            step("interrupted")
            return 130
        }
        if override == nil { step("(the demo's data directory is removed with the lab; pass --data-dir to keep it)") }
        return failures == 0 ? 0 : 1
    }
}
