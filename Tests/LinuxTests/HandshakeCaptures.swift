#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Linux
import Shared
import TestSupport

/// One pcap of real handshakes recorded in a lab (issue 5), and tshark's reading of it.
///
/// The server namespace runs `openssl s_server` at TLS 1.3 (4433), at TLS 1.2 only with
/// ECDHE-RSA-AES128-GCM-SHA256 (4434) and at TLS 1.3 accepting only X25519 over IPv6 (4435), all
/// with ALPN h2,http/1.1 and the two-certificate chain; a DNS server for a small zone; an HTTP
/// server; and two aioquic servers (4443, and 4444 answering every first Initial with a Retry).
/// From the host namespace, in order:
///  1. `openssl s_client` → 4433 with SNI and ALPN h2,http/1.1 (TLS 1.3);
///  2. the same → 4434 (TLS 1.2: the chain in the clear);
///  3. `curl --http1.1` → 4433 and 4. → 4434 (curl's own hello, ALPN http/1.1);
///  5. `s_client -tls1_3` → 4434: refused with protocol_version (alert 70);
///  6. `s_client -tls1_2` → 4434: a hello without supported_versions, nor ALPN;
///  7. `s_client -noservername` → 4434: no SNI, so no name, and `-servername HOST:4433` → 4433:
///     a server name that is no host name;
///  8. `s_client -groups P-256:X25519` → [fd00:19::2]:4435: a HelloRetryRequest;
///  9. `curl http://name.example.test:8080/`: a DNS lookup (A, AAAA), then plain HTTP to its answer;
/// 10. `curl http://www.example.test:8080/`: a lookup answered through a CNAME, both families;
/// 11. aioquic → 4443 with SNI and ALPN h3, QUIC v1, and 12. the same with QUIC v2;
/// 13. and 14. the same two → 4444: a Retry, then the handshake with keys of its connection ID.
struct HandshakeCapture: Sendable {
    static let tls13Port = 4433
    static let tls12Port = 4434
    static let retryPort = 4435
    static let quicPort = 4443
    static let quicRetryPort = 4444
    /// A server name that is no host name (`host:port`): it names nothing, and is kept as sent.
    static let notAHostName = "\(HandshakeCertificates.leafName):\(tls13Port)"
    static let httpPort = 8080
    static let plainName = "name.example.test"
    static let aliasName = "www.example.test"
    static let aliasTarget = "edge.example.test"
    static let plainAddress = "198.19.0.3"
    static let aliasIPv4 = "198.19.0.4"
    static let aliasIPv6 = "fd00:19::4"
    static let zone = """
    {"\(plainName)": [["A", "\(plainAddress)"]], "\(aliasName)": [["CNAME", "\(aliasTarget)"]],
     "\(aliasTarget)": [["A", "\(aliasIPv4)"], ["AAAA", "\(aliasIPv6)"]]}
    """
    /// The one line scripts/test needs for the QUIC peers.
    static let pipLine = "python3 -m pip install aioquic"
    /// So tshark reads the lab's TLS ports as TLS whatever its heuristics think.
    static let tsharkOptions = ["-d", "tcp.port==\(tls13Port)-\(retryPort),tls"]

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    let directory: TemporaryDirectory
    let file: URL
    let reading: TsharkReading

    /// Builds the lab, plays the scenario while dumpcap records `veth-server`, and reads the file
    /// with tshark. Everything started is stopped, and the lab removed, before it returns.
    static func record() throws -> HandshakeCapture {
        try requireTools()
        let directory = TemporaryDirectory("handshake-capture")
        let certificates = try HandshakeCertificates(in: directory.url)
        let file = directory.url.appendingPathComponent("handshakes.pcap")
        let lab = try Lab()
        defer { lab.remove() }
        for address in ["\(plainAddress)/24", "\(aliasIPv4)/24"] {
            try lab.server.ip(["addr", "add", address, "dev", "veth-server"])
        }
        try lab.server.ip(["-6", "addr", "add", "\(aliasIPv6)/64", "dev", "veth-server", "nodad"])
        let resolvConf = try NamespaceResolvConf(namespace: lab.host.name, servers: [IPAddress(parsing: Lab.serverIPv4)!])
        defer { resolvConf.remove() }

        var servers: [Process] = []
        defer { servers.forEach(LabScripts.stop) }
        let tlsServer = ["openssl", "s_server", "-www", "-quiet", "-cert", certificates.leaf, "-key", certificates.leafKey,
                         "-cert_chain", certificates.intermediate, "-alpn", "h2,http/1.1"]
        servers.append(try start(tlsServer + ["-accept", "\(Lab.serverIPv4):\(tls13Port)", "-tls1_3"], in: lab.server))
        servers.append(try start(tlsServer + ["-accept", "\(Lab.serverIPv4):\(tls12Port)", "-tls1_2",
                                              "-cipher", "ECDHE-RSA-AES128-GCM-SHA256"], in: lab.server))
        servers.append(try start(tlsServer + ["-accept", "[\(Lab.serverIPv6)]:\(retryPort)", "-tls1_3", "-groups", "X25519"],
                                 in: lab.server))
        let www = directory.url.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        try Data("hello\n".utf8).write(to: www.appendingPathComponent("index.html"))
        servers.append(try start([LabScripts.python, "-m", "http.server", String(httpPort), "--bind", "::",
                                  "--directory", www.path], in: lab.server))
        servers.append(try start([LabScripts.python, "-c", HandshakeLabScripts.dnsServer, Lab.serverIPv4, zone], in: lab.server))
        servers.append(try start([LabScripts.python, "-c", HandshakeLabScripts.quicServer, Lab.serverIPv4, String(quicPort),
                                  certificates.chain, certificates.leafKey], in: lab.server))
        servers.append(try start([LabScripts.python, "-c", HandshakeLabScripts.quicServer, Lab.serverIPv4, String(quicRetryPort),
                                  certificates.chain, certificates.leafKey, "retry"], in: lab.server))
        // Every server listens before the capture starts, so no probe is recorded.
        try LabScripts.waitForListener(Lab.serverIPv4, tls13Port, from: lab.host)
        try LabScripts.waitForListener(Lab.serverIPv4, tls12Port, from: lab.host)
        try LabScripts.waitForListener(Lab.serverIPv6, retryPort, from: lab.host)
        try LabScripts.waitForListener(plainAddress, httpPort, from: lab.host)
        try waitForUDPListener(53, in: lab.server)
        try waitForUDPListener(quicPort, in: lab.server)
        try waitForUDPListener(quicRetryPort, in: lab.server)

        let capture = try LabPacketCapture(interface: "veth-server", in: lab.server, file: file)
        defer { capture.abandon() }
        try playClients(in: lab.host)
        // The last closes and acknowledgements: every TCP connection ended, and the file holds them.
        try LabConnections.waitUntilEnded(in: lab.host)
        try capture.waitUntilWritten()
        let received = try capture.stop()
        let reading = try TsharkHandshakes.read(file, options: tsharkOptions)
        guard reading.frames == received else {
            throw Failed(description: "dumpcap saw \(received) packets, the file holds \(reading.frames)")
        }
        return HandshakeCapture(directory: directory, file: file, reading: reading)
    }

    /// The clients, in the order the type's comment lists them.
    static func playClients(in host: NetworkNamespace) throws {
        let name = HandshakeCertificates.leafName
        let sClient = { (target: String, options: [String]) in
            ["timeout", "20", "openssl", "s_client", "-connect", target] + options
        }
        let alpn = ["-alpn", "h2,http/1.1"]
        try client(sClient("\(Lab.serverIPv4):\(tls13Port)", ["-servername", name] + alpn), in: host)
        try client(sClient("\(Lab.serverIPv4):\(tls12Port)", ["-servername", name] + alpn), in: host)
        for port in [tls13Port, tls12Port] {
            let answer = try client(["timeout", "20", "curl", "-sSk", "--http1.1", "-o", "/dev/null", "-w", "%{http_code}",
                                     "--resolve", "\(name):\(port):\(Lab.serverIPv4)", "https://\(name):\(port)/"], in: host)
            guard answer == "200" else { throw Failed(description: "curl https://\(name):\(port)/ answered \(answer)") }
        }
        try client(sClient("\(Lab.serverIPv4):\(tls12Port)", ["-servername", name, "-tls1_3"]), in: host, mayFail: true)
        try client(sClient("\(Lab.serverIPv4):\(tls12Port)", ["-servername", name, "-tls1_2"]), in: host)
        try client(sClient("\(Lab.serverIPv4):\(tls12Port)", ["-noservername"] + alpn), in: host)
        try client(sClient("\(Lab.serverIPv4):\(tls13Port)", ["-servername", notAHostName]), in: host)
        try client(sClient("[\(Lab.serverIPv6)]:\(retryPort)", ["-servername", name, "-groups", "P-256:X25519"] + alpn), in: host)
        for target in [plainName, aliasName] {
            let answer = try client(["timeout", "20", "curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}",
                                     "http://\(target):\(httpPort)/"], in: host)
            guard answer == "200" else { throw Failed(description: "curl http://\(target):\(httpPort)/ answered \(answer)") }
        }
        for port in [quicPort, quicRetryPort] {
            for (version, number) in [("1", 1), ("2", 0x6B33_43CF)] {
                let said = try client(["timeout", "20", LabScripts.python, "-c", HandshakeLabScripts.quicClient, Lab.serverIPv4,
                                       String(port), name, version], in: host)
                guard said == "connected \(number)" else { throw Failed(description: "the QUIC v\(version) client to \(port) said \(said)") }
            }
        }
    }

    /// Runs a client to its end; its output never reaches the test's. Returns its trimmed stdout.
    @discardableResult
    static func client(_ arguments: [String], in host: NetworkNamespace, mayFail: Bool = false) throws -> String {
        do {
            return try host.run(arguments).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            // Refused, as the scenario wants; 124 is timeout's status: a hang, not a refusal.
            guard mayFail, case .failed(_, let status, _) = error, status != 124 else { throw error }
            return ""
        }
    }

    /// Like `LabScripts.start`, with standard input closed too (s_server reads commands from it).
    static func start(_ arguments: [String], in namespace: NetworkNamespace) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalCommand.locate("ip") ?? "/usr/sbin/ip")
        process.arguments = Array(namespace.command(arguments).dropFirst())
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    static func waitForUDPListener(_ port: Int, in namespace: NetworkNamespace) throws {
        for _ in 0..<100 {
            if try !namespace.run(["ss", "-Hlun", "sport = :\(port)"]).standardOutput.isEmpty { return }
            usleep(50_000)
        }
        throw Failed(description: "nothing listens on UDP port \(port)")
    }

    /// Fails loudly, naming the install line, when a peer of the scenario is missing.
    static func requireTools() throws {
        for tool in ["openssl", "curl", "dumpcap", "tshark", "ss", "timeout"] where ExternalCommand.locate(tool) == nil {
            throw Failed(description: "\(tool) is not installed: scripts/test installs it (apt-get install tshark curl openssl iproute2)")
        }
        do {
            try ExternalCommand.run([LabScripts.python, "-c", "import aioquic"])
        } catch {
            throw Failed(description: "aioquic is not installed for \(LabScripts.python): \(pipLine)")
        }
    }
}
