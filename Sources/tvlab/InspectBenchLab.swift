#if canImport(Glibc)
import Glibc
#endif
import Bench
import Foundation
import Linux
import Shared

/// The lab of `bench inspect`: the inspection lab's nginx (`InspectionNginx`) in the server
/// namespace serving a large file and a tiny one as `secure.test`, the lab's PKI, the person's CA
/// (`tunnelvision ca create`) in a data directory, and mitmdump on the host namespace's loopback
/// when it is installed. `close` takes it all down; the caller's directory holds every file.
final class InspectBenchLab {
    static let host = "secure.test"
    static let largeFile = "/large.bin"
    static let tinyFile = "/tiny.txt"
    static let tinyBody = "ok\n"
    static let proxyPort: UInt16 = 8_080
    static let setupSeconds = 20.0

    let lab: Lab
    let directory: String
    let pki: DemoCertificates
    /// The data directory every `tunnelvision run` of the bench uses, with the person's CA in it.
    let data: String
    let tunnelvision: String
    private var processes: [BenchProcess] = []

    init(directory: String, largeBytes: Int, tunnelvision: String) throws(Failure) {
        self.directory = directory
        self.tunnelvision = tunnelvision
        data = directory + "/data"
        do { lab = try Lab() } catch { throw Failure("cannot build the lab: \(error)") }
        do throws(Failure) {
            (pki, processes) = try Self.serve(lab, directory: directory, largeBytes: largeBytes)
        } catch {
            lab.removeSayingFailures()
            throw error
        }
        let made = try Subprocess.run(tunnelvision, ["ca", "create", "--data-dir", data])
        guard made.succeeded else {
            close()
            throw Failure("\(tunnelvision) ca create --data-dir \(data): \(made.summary)")
        }
    }

    /// The certificates, the files and nginx serving them; nginx stopped again on a failure.
    private static func serve(_ lab: Lab, directory: String, largeBytes: Int) throws(Failure) -> (DemoCertificates, [BenchProcess]) {
        // Each connection run leaves its sockets in TIME_WAIT in host (the relays' own, and
        // mitmdump's); reuse keeps hundreds of fresh connections from measuring port pressure.
        do { try lab.host.run(["sysctl", "-q", "-w", "net.ipv4.tcp_tw_reuse=1"]) } catch { throw Failure("cannot set up the lab: \(error)") }
        let root = URL(fileURLWithPath: directory)
        let pkiDirectory = root.appendingPathComponent("pki"), www = root.appendingPathComponent("www")
        let pki: DemoCertificates
        do {
            try FileManager.default.createDirectory(at: pkiDirectory, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
            pki = try DemoCertificates(in: pkiDirectory, names: [host])
        } catch { throw Failure("cannot make the lab's certificates: \(error)") }
        try writeLargeFile(www.path + largeFile, bytes: largeBytes)
        do { try Data(tinyBody.utf8).write(to: URL(fileURLWithPath: www.path + tinyFile)) } catch {
            throw Failure("cannot write \(www.path + tinyFile): \(error)")
        }
        let nginx = InspectionNginx(host: host, pki: pki, root: www, work: root)
        let argv: [String]
        do { argv = try nginx.prepare() } catch { throw Failure("cannot write \(nginx.configurationFile.path): \(error)") }
        let server = try TunnelBenchCommand.startServer(lab, argv, name: "nginx", port: UInt16(InspectionNginx.port),
                                                        errors: directory + "/nginx.err")
        return (pki, [server])
    }

    /// The lab's root: what nginx's chain ends in, trusted by passthrough's client and given to
    /// the inspecting tunnel and to mitmdump as the upstream's CA.
    var labRoot: String { pki.root }

    /// A CA file for a client that is not inside `run --inspect`: the system's bundle with `root`
    /// after it — the shape `run --inspect` gives its command (the system's roots and the person's
    /// CA), so every path's client parses as many roots per connection. (curl reads its whole CA
    /// file on each start: 140 roots cost it ~30 ms a handshake, the same with or without the
    /// tunnel; a one-root file on one path only would credit that path with the difference.)
    func trustBundle(adding root: String, name: String) throws(Failure) -> String {
        let path = directory + "/\(name)-trust.pem"
        let system = InspectionSystemTrust.survey().bundles.first.map(\.resolved)
        do {
            var bundle = try system.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } ?? Data()
            if !bundle.isEmpty, bundle.last != UInt8(ascii: "\n") { bundle.append(UInt8(ascii: "\n")) }
            bundle.append(try Data(contentsOf: URL(fileURLWithPath: root)))
            try bundle.write(to: URL(fileURLWithPath: path))
        } catch {
            throw Failure("cannot write \(path) from \(system ?? "no system bundle") and \(root): \(error)")
        }
        return path
    }

    /// `curl` flags that reach the server by name without DNS.
    var resolve: [String] { ["--resolve", "\(Self.host):\(InspectionNginx.port):\(Lab.serverIPv4)"] }

    func url(_ path: String) -> String { "https://\(Self.host)\(path)" }

    /// `tunnelvision run` in host around `client`, inspecting or not.
    func run(inspect: Bool, _ client: [String]) -> [String] {
        lab.host.command([tunnelvision, "run", "--data-dir", data, "--capture-detail", "metadata"]
                         + (inspect ? ["--inspect", "--upstream-ca", labRoot] : []) + ["--"] + client)
    }

    /// Starts mitmdump on host's loopback, its CA in a private confdir, trusting the lab's root
    /// upstream; answers the CA file its clients trust. Bodies over 1 MiB are streamed (its
    /// fastest way to carry a large download, rather than buffering it whole). An addon sends
    /// `secure.test` to the server's address: host has no DNS, and the name stays the SNI.
    func startMitmproxy(_ mitmdump: String) throws(Failure) -> String {
        let confdir = directory + "/mitmproxy"
        let addon = directory + "/mitmproxy-route.py"
        let addonText = """
            def server_connect(data):
                if data.server.address and data.server.address[0] == "\(Self.host)":
                    data.server.address = ("\(Lab.serverIPv4)", data.server.address[1])
            """
        do { try Data(addonText.utf8).write(to: URL(fileURLWithPath: addon)) } catch { throw Failure("cannot write \(addon): \(error)") }
        let errors = directory + "/mitmdump.err"
        let process = try BenchProcess(lab.host.command([mitmdump, "-q", "--listen-host", "127.0.0.1",
                                                         "--listen-port", String(Self.proxyPort),
                                                         "--set", "confdir=\(confdir)",
                                                         "--set", "ssl_verify_upstream_trusted_ca=\(labRoot)",
                                                         "--set", "stream_large_bodies=1m", "-s", addon]),
                                       name: "mitmdump", output: directory + "/mitmdump.out", errors: errors)
        processes.append(process)
        let caFile = confdir + "/mitmproxy-ca-cert.pem"
        do {
            try TunnelBenchRoute.waitUntil("mitmdump to listen on 127.0.0.1:\(Self.proxyPort)", seconds: Self.setupSeconds,
                                           process: process) {
                let listening = try? ExternalCommand.run(["ss", "-N", lab.host.name, "-Hltn", "sport = :\(Self.proxyPort)"])
                return FileSystem.exists(caFile) && !(listening?.standardOutput.isEmpty ?? true)
            }
        } catch {
            throw Failure("\(error)\(TunnelBenchClients.tail(of: errors))")
        }
        return caFile
    }

    /// Stops every program started, newest first, then removes the namespaces. Safe twice.
    func close() {
        processes.reversed().forEach { $0.kill() }
        processes.removeAll()
        lab.removeSayingFailures()
    }

    /// `bytes` of pseudo-random data (TLS does not compress, but a file of zeros would let any
    /// layer that does look faster than it is), written 1 MiB at a time.
    private static func writeLargeFile(_ path: String, bytes: Int) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure("cannot create \(path)", errno: errno) }
        defer { Glibc.close(descriptor) }
        var generator = SystemRandomNumberGenerator()
        let chunk = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var left = bytes
        while left > 0 {
            let count = min(left, chunk.count)
            if let failure = chunk[..<count].withUnsafeBytes({ FileDescriptor.writeAll(descriptor, $0) }) {
                throw Failure("cannot write \(path)", errno: failure)
            }
            left -= count
        }
    }
}
