#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// `tunnelvision demo`'s lab and what happens in it, needing nothing outside the machine: real
/// servers in the lab's server namespace, each on an address of its own that the lab's DNS
/// responder names (HTTPS at TLS 1.2 and at TLS 1.3 with a demo CA's chain, QUIC, HTTP with a
/// large file, a UDP echo), real clients in the monitored namespace through the tunnel — so the
/// history shows connections by name (SNI, QUIC Initial, DNS answer), the TLS offer, answer and
/// chain, a download and a burst — then the session read back, and the lab removed, also after
/// Ctrl-C. The command renders the steps and the outcome.
package struct DemoScenario: Sendable {
    package static let fileBytes = 20 << 20
    package static let parallelRequests = 50
    /// What the lookup client asks first: the lab's resolver by name, so the DNS and UDP flows to
    /// it are named too.
    static let demoName = "ns.demo.test"

    /// A server of the demo: the name the lab's DNS gives it, and its own address.
    package struct Site: Sendable, Equatable {
        package let name: String
        package let address: String
    }

    /// HTTPS at TLS 1.2: the certificate chain crosses in the clear.
    package static let shop = Site(name: "shop.demo.test", address: "198.19.0.10")
    /// HTTPS at TLS 1.3.
    package static let news = Site(name: "news.demo.test", address: "198.19.0.11")
    /// QUIC, named from its Initial.
    package static let video = Site(name: "video.demo.test", address: "198.19.0.12")
    /// Plain HTTP, named from the DNS answer: the download and the burst.
    package static let files = Site(name: "files.demo.test", address: "198.19.0.13")
    static let sites = [shop, news, video, files]
    package static let httpPort = 8080
    static let udpEchoPort = 7000

    /// What the demo is doing, as it starts doing it.
    package enum Step: Sendable, Equatable {
        case buildingLab
        case startingTunnel(dataDirectory: String)
        case client(Client)
        case clientFinished(ok: Bool)
        /// The lab taken down; `failures` says what of it could not be removed, and why.
        case labRemoved(failures: [String])
    }

    /// The clients, in the order they run.
    package enum Client: Sendable, Equatable {
        case lookup(name: String)
        case download(name: String, bytes: Int)
        case https(name: String, tlsVersion: String)
        case quic(name: String)
        case parallelRequests(name: String, count: Int)
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
        guard ["python3", "curl", "openssl"].allSatisfy({ ExternalCommand.locate($0) != nil }) else {
            throw .missingPrograms("the demo's servers and clients need python3, curl and openssl "
                + "(apt-get install -y python3 curl openssl)")
        }
        if let missing = LabScripts.missingScripts { throw .missingPrograms(missing) }
        guard (try? ExternalCommand.run([LabScripts.python, "-c", "import aioquic"])) != nil else {
            throw .missingPrograms("the demo's QUIC server and client need aioquic for \(LabScripts.python) "
                + "(python3 -m pip install aioquic, with --break-system-packages on Debian's own python3; scripts/demo does it)")
        }
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
        let pki = work.appendingPathComponent("pki")
        for directory in [www, pki] { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
        var random = SystemRandomNumberGenerator()
        let words = (0..<(Self.fileBytes / 8)).map { _ in random.next() }
        try words.withUnsafeBytes { Data($0) }.write(to: www.appendingPathComponent("large.bin"))
        try Data(Self.page.utf8).write(to: www.appendingPathComponent("index.txt"))
        let certificates = try DemoCertificates(in: pki, names: [Self.shop.name, Self.news.name, Self.video.name])

        progress(.buildingLab)
        let lab = try Lab()
        defer { progress(.labRemoved(failures: lab.remove().map(\.description))) }
        for site in Self.sites {
            try lab.server.ip(["addr", "add", "\(site.address)/\(Lab.ipv4PrefixLength)", "dev", "veth-server"])
        }
        let servers = try startServers(in: lab, www: www, certificates: certificates)
        defer { servers.forEach(LabScripts.stop) }
        try LabScripts.waitForListener(Self.files.address, Self.httpPort, from: lab.host)
        try LabScripts.waitForListener(Self.shop.address, 443, from: lab.host)
        try LabScripts.waitForListener(Self.news.address, 443, from: lab.host)
        try Self.waitForUDPListener(port: 443, in: lab.server)

        progress(.startingTunnel(dataDirectory: data.path))
        try DataDirectory.prepare(data)
        let device = try TUNDevice()
        defer { device.close() }
        try TunnelNamespacePlan.apply(device: device.name, namespace: lab.monitored.name)
        let resolvConf = try NamespaceResolvConf(namespace: lab.monitored.name, servers: [IPAddress(parsing: Lab.serverIPv4)!])
        defer { resolvConf.remove() }
        var options = TunnelSession.Options()
        options.origin = "demo"
        let settings = SettingsStore(dataDirectory: data).loadForSession()
        // Whole packets unless the person chose otherwise: the pcap then holds the handshakes
        // Wireshark names the connections by.
        options.captureDetail = settings.settings.captureDetail
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
        let python = LabScripts.python
        client(.lookup(name: Self.demoName),
               [python, "-c", "import socket; print(socket.gethostbyname('\(Self.demoName)'))"]) { $0 == "\(Lab.serverIPv4)\n" }
        // First, so the other clients stand between it and the burst to the same host.
        let download = work.appendingPathComponent("download.bin")
        client(.download(name: Self.files.name, bytes: Self.fileBytes),
               ["curl", "-sS", "--max-time", "120", "-o", download.path, "-w", "%{size_download}",
                "http://\(Self.files.name):\(Self.httpPort)/large.bin"]) { $0 == "\(Self.fileBytes)" }
        for (site, version) in [(Self.shop, "1.2"), (Self.news, "1.3")] {
            client(.https(name: site.name, tlsVersion: version),
                   ["curl", "-sS", "--max-time", "20", "--cacert", certificates.root, "https://\(site.name)/index.txt"]) { $0 == Self.page }
        }
        client(.quic(name: Self.video.name),
               LabScripts.script("quic_ask", Self.video.name, "443", certificates.root, "hello over quic")) { $0 == "HELLO OVER QUIC\n" }
        // By address, as a program that looked the name up once does: the DNS answer above names them.
        client(.parallelRequests(name: Self.files.name, count: Self.parallelRequests),
               LabScripts.parallelFetch("http://\(Self.files.address):\(Self.httpPort)/index.txt", count: Self.parallelRequests,
                                        expected: "hello from the lab\\n")) { $0 == "\(Self.parallelRequests)\n" }
        client(.udpExchange, LabScripts.udpAsk(Lab.serverIPv4, port: Self.udpEchoPort, message: "ping")) { $0 == "PING\n" }

        await session.stop()
        return Outcome(failures: failures, interrupted: Self.interrupted != 0, recording: await SessionRecording.read(session))
    }

    static let page = "hello from the lab\n"

    /// The servers, each a real program in the server namespace.
    private func startServers(in lab: Lab, www: URL, certificates: DemoCertificates) throws -> [Process] {
        let python = LabScripts.python
        let zone = [Self.demoName + "=" + Lab.serverIPv4] + Self.sites.map { "\($0.name)=\($0.address)" }
        var servers: [Process] = []
        do {
            servers.append(try LabScripts.start(LabScripts.dnsResponder(bind: Lab.serverIPv4, answer: Lab.serverIPv4, names: zone),
                                                in: lab.server))
            servers.append(try LabScripts.start([python, "-m", "http.server", "\(Self.httpPort)", "--bind", Self.files.address,
                                                 "--directory", www.path], in: lab.server))
            for (site, version) in [(Self.shop, "1.2"), (Self.news, "1.3")] {
                servers.append(try LabScripts.start(LabScripts.script("https_server", site.address, "443", certificates.chain(for: site.name),
                                                                      certificates.key(for: site.name), version, www.path),
                                                    in: lab.server))
            }
            servers.append(try LabScripts.start(LabScripts.script("quic_echo_server", Self.video.address, "443",
                                                                  certificates.chain(for: Self.video.name),
                                                                  certificates.key(for: Self.video.name)), in: lab.server))
            servers.append(try LabScripts.start(LabScripts.udpEcho(bind: Lab.serverIPv4, port: Self.udpEchoPort), in: lab.server))
        } catch {
            servers.forEach(LabScripts.stop)
            throw error
        }
        return servers
    }

    /// Waits (up to 20 s) until a UDP socket is bound to `port` in `namespace`: aioquic takes a
    /// moment to import, and a QUIC client's first Initial would meet a closed port.
    private static func waitForUDPListener(port: Int, in namespace: NetworkNamespace) throws {
        for _ in 0..<200 {
            let sockets = try namespace.run(["ss", "-Hlun", "sport = :\(port)"]).standardOutput
            if !sockets.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return }
            usleep(100_000)
        }
        throw CommandError.failed(command: "the demo's QUIC server", status: 1, standardError: "not listening on UDP port \(port) after 20 s")
    }
}
