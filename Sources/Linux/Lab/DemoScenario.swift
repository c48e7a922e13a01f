#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// `tunnelvision demo`'s lab and what happens in it, needing nothing outside the machine: real
/// servers in the lab's server namespace (HTTP with a large file, a DNS responder, a UDP echo),
/// real clients in the monitored namespace (a download, parallel requests, a lookup by name, a
/// UDP exchange) through the tunnel, then the session read back — and the lab removed, also after
/// Ctrl-C. The command renders the steps and the outcome.
package struct DemoScenario: Sendable {
    package static let fileBytes = 20 << 20
    package static let parallelRequests = 50
    package static let demoName = "demo.tunnelvision.test"

    /// What the demo is doing, as it starts doing it.
    package enum Step: Sendable, Equatable {
        case buildingLab
        case startingTunnel(dataDirectory: String)
        case client(Client)
        case clientFinished(ok: Bool)
        case labRemoved
    }

    /// The clients, in the order they run.
    package enum Client: Sendable, Equatable {
        case download(bytes: Int)
        case parallelRequests(Int)
        case lookup(name: String)
        case udpExchange
    }

    package struct Outcome: Sendable {
        /// Clients that did not get the expected answer.
        package let failures: Int
        /// Ctrl-C (or SIGTERM) stopped it before every client ran.
        package let interrupted: Bool
        package let recording: SessionRecording

        /// What the summary reports as the demo's own status: 0 when every client succeeded.
        package var clientsStatus: Int32 { failures == 0 ? 0 : 1 }
        /// `clientsStatus`, or 130 when interrupted.
        package var exitStatus: Int32 { interrupted ? 130 : clientsStatus }
    }

    /// nil: a temporary data directory removed with the lab.
    package let dataDirectory: String?

    /// Checks what a person can act on before anything is made.
    package init(dataDirectory: String?) throws(RunFailure) {
        guard geteuid() == 0 else {
            throw .notRoot(command: "demo", makes: "network namespaces and a TUN device", retry: "tunnelvision demo")
        }
        guard access("/dev/net/tun", F_OK) == 0 else { throw .noTUNDevice }
        guard ExternalCommand.locate("python3") != nil, ExternalCommand.locate("curl") != nil else {
            throw .missingPrograms("the demo's servers and clients need python3 and curl (apt-get install -y python3 curl)")
        }
        if let missing = LabScripts.missingScripts { throw .missingPrograms(missing) }
        self.dataDirectory = dataDirectory
    }

    nonisolated(unsafe) static var interrupted: sig_atomic_t = 0

    /// Runs the demo, reporting each step as it starts.
    package func run(progress: (Step) -> Void) async throws(RunFailure) -> Outcome {
        signal(SIGINT) { _ in DemoScenario.interrupted = 1 }
        signal(SIGTERM) { _ in DemoScenario.interrupted = 1 }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("tunnelvision-demo-\(getpid())")
        defer { try? FileManager.default.removeItem(at: work) }
        do {
            return try await run(in: work, progress: progress)
        } catch let failure as RunFailure {
            throw failure
        } catch {
            throw .setUp("\(error)")
        }
    }

    private func run(in work: URL, progress: (Step) -> Void) async throws -> Outcome {
        let data = dataDirectory.map { URL(fileURLWithPath: $0) } ?? work.appendingPathComponent("data")
        let www = work.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        var random = SystemRandomNumberGenerator()
        try Data((0..<Self.fileBytes).map { _ in UInt8.random(in: 0...255, using: &random) })
            .write(to: www.appendingPathComponent("large.bin"))
        try Data("hello from the lab\n".utf8).write(to: www.appendingPathComponent("index.txt"))

        progress(.buildingLab)
        let lab = try Lab()
        defer { lab.remove(); progress(.labRemoved) }
        let python = LabScripts.python
        let servers = [
            try LabScripts.start([python, "-m", "http.server", "8080", "--bind", Lab.serverIPv4, "--directory", www.path], in: lab.server),
            try LabScripts.start(LabScripts.dnsResponder(bind: Lab.serverIPv4, answer: Lab.serverIPv4), in: lab.server),
            try LabScripts.start(LabScripts.udpEcho(bind: Lab.serverIPv4, port: 7000), in: lab.server),
        ]
        defer { servers.forEach(LabScripts.stop) }
        try LabScripts.waitForListener(Lab.serverIPv4, 8080, from: lab.host)

        progress(.startingTunnel(dataDirectory: data.path))
        try DataDirectory.prepare(data)
        let device = try TUNDevice()
        defer { device.close() }
        try TunnelNamespacePlan.apply(device: device.name, namespace: lab.monitored.name)
        let resolvConf = try NamespaceResolvConf(namespace: lab.monitored.name, servers: [IPAddress(parsing: Lab.serverIPv4)!])
        defer { resolvConf.remove() }
        var options = TunnelSession.Options()
        options.captureDetail = .metadataOnly
        options.origin = "demo"
        let settings = SettingsStore(dataDirectory: data).loadForSession()
        options.retention = settings.problem == nil ? settings.settings.retention : nil
        let session = try await TunnelSession(dataDirectory: data, device: device, options: options,
                                              relayNamespace: lab.host.name)

        var failures = 0
        func client(_ client: Client, _ arguments: [String], expect check: (String) -> Bool) {
            guard Self.interrupted == 0 else { return }
            progress(.client(client))
            let output = try? lab.monitored.run(arguments)
            let ok = output.map { check($0.standardOutput) } ?? false
            if !ok { failures += 1 }
            progress(.clientFinished(ok: ok))
        }
        let download = work.appendingPathComponent("download.bin")
        client(.download(bytes: Self.fileBytes),
               ["curl", "-sS", "--max-time", "120", "-o", download.path, "-w", "%{size_download}",
                "http://\(Lab.serverIPv4):8080/large.bin"]) { $0 == "\(Self.fileBytes)" }
        client(.parallelRequests(Self.parallelRequests),
               LabScripts.parallelFetch("http://\(Lab.serverIPv4):8080/index.txt", count: Self.parallelRequests,
                                        expected: "hello from the lab\\n")) { $0 == "\(Self.parallelRequests)\n" }
        client(.lookup(name: Self.demoName),
               [python, "-c", "import socket; print(socket.gethostbyname('\(Self.demoName)'))"]) { $0 == "\(Lab.serverIPv4)\n" }
        client(.udpExchange, LabScripts.udpAsk(Lab.serverIPv4, port: 7000, message: "ping")) { $0 == "PING\n" }

        await session.stop()
        return Outcome(failures: failures, interrupted: Self.interrupted != 0, recording: await SessionRecording.read(session))
    }
}
