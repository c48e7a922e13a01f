import Foundation
import Testing
@testable import Shared

/// Real TLS handshakes on loopback: `openssl s_server` presents a minted leaf and its key, and
/// three independent client stacks — curl (OpenSSL), gnutls-cli (GnuTLS) and Python's `ssl` —
/// judge it with our root as their only trust anchor. Loopback only; nothing leaves the machine.
@Suite(.serialized) struct CertificateHandshakeTests {
    /// An `openssl s_server` presenting NAME.pem / NAME.key on 127.0.0.1, stopped by its own PID.
    final class Server {
        private let running: Process
        let port: Int

        init(files: CertificateFiles, leaf: String) throws {
            var lastOutput = ""
            for _ in 0..<8 {
                let port = Int.random(in: 20_000...59_999)
                let log = files.path("server-\(port).log")
                _ = FileManager.default.createFile(atPath: log, contents: nil)
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
                process.arguments = ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", files.path("\(leaf).pem"),
                                     "-key", files.path("\(leaf).key"), "-www", "-quiet"]
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
                process.standardOutput = handle
                process.standardError = handle
                process.standardInput = FileHandle.nullDevice
                try process.run()
                for _ in 0..<150 where process.isRunning {
                    if Self.listening(port) { break }
                    usleep(20_000)
                }
                if process.isRunning, Self.listening(port) {
                    self.port = port
                    running = process
                    return
                }
                if process.isRunning { process.terminate() }
                process.waitUntilExit()
                lastOutput = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            }
            throw CertificateFiles.Failure("openssl s_server did not start: \(lastOutput)")
        }

        /// True when something accepts on 127.0.0.1:port.
        static func listening(_ port: Int) -> Bool {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { return false }
            defer { close(descriptor) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
        }

        func stop() {
            guard running.isRunning else { return }
            kill(running.processIdentifier, SIGKILL)   // a blocked SIGTERM is inherited from the test runner
            running.waitUntilExit()
        }

        deinit { stop() }
    }

    enum Verdict: Equatable { case accepted, rejected }

    /// The three clients' verdicts on the server at `port`, asking for `host`, trusting only `root`.
    private func verdicts(_ files: CertificateFiles, port: Int, host: String, root: String) throws -> [String: (Verdict, String)] {
        let rootPath = files.path("\(root).pem")
        let url = host.contains(":") ? "https://[\(host)]:\(port)/" : "https://\(host):\(port)/"
        let resolve = IPAddress(parsing: host) == nil ? ["--resolve", "\(host):\(port):127.0.0.1"] : []
        let curl = try files.run("/usr/bin/curl", ["-sS", "-o", "/dev/null", "--max-time", "10", "--cacert", rootPath] + resolve + [url])
        let gnutls = try files.run("/usr/bin/timeout", ["10", "/usr/bin/gnutls-cli", "--x509cafile", rootPath, "-p", String(port),
                                                       "--sni-hostname", host, "--verify-hostname", host, "127.0.0.1"])
        let python = try files.python("""
            import socket, ssl, sys
            context = ssl.create_default_context(cafile=sys.argv[2])
            try:
                with socket.create_connection(("127.0.0.1", int(sys.argv[3])), timeout=10) as raw:
                    with context.wrap_socket(raw, server_hostname=sys.argv[4]) as tls:
                        print("accepted", tls.version())
            except ssl.SSLCertVerificationError as error:
                print("rejected", error.verify_message)
                sys.exit(1)
            """, [rootPath, String(port), host])
        func verdict(_ result: (status: Int32, out: String, err: String)) -> (Verdict, String) {
            (result.status == 0 ? .accepted : .rejected, result.out + result.err)
        }
        return ["curl": verdict(curl), "gnutls-cli": verdict(gnutls), "python ssl": verdict(python)]
    }

    private func expect(_ verdicts: [String: (Verdict, String)], _ expected: Verdict, because reason: String,
                        sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(verdicts.count == 3, sourceLocation: sourceLocation)
        for (client, (verdict, output)) in verdicts.sorted(by: { $0.key < $1.key }) {
            #expect(verdict == expected, "\(client) \(reason): \(output)", sourceLocation: sourceLocation)
        }
    }

    @Test("curl, gnutls-cli and Python's ssl accept a minted leaf for its host under our root, and refuse it for another host and under another root")
    func threeStacksJudgeALeaf() throws {
        let ca = try CertificateAuthority.generate()
        let files = CertificateFiles()
        try files.certificate("root", ca.rootCertificateDER)
        try files.certificate("other", try CertificateAuthority.generate().rootCertificateDER)
        try files.leaf("leaf", try ca.mintLeaf(forHost: "www.example.test"))
        let server = try Server(files: files, leaf: "leaf")
        defer { server.stop() }
        expect(try verdicts(files, port: server.port, host: "www.example.test", root: "root"), .accepted, because: "for its host")
        let wrongHost = try verdicts(files, port: server.port, host: "bank.example.test", root: "root")
        expect(wrongHost, .rejected, because: "for another host")
        #expect(wrongHost["python ssl"]?.1.contains("Hostname mismatch") == true, "\(wrongHost["python ssl"]?.1 ?? "")")
        let wrongRoot = try verdicts(files, port: server.port, host: "www.example.test", root: "other")
        expect(wrongRoot, .rejected, because: "under another root")
        #expect(wrongRoot["python ssl"]?.1.contains("unable to get local issuer certificate") == true)
    }

    @Test("the three stacks refuse an expired leaf, and accept one minted for an IP literal")
    func expiredAndAddressLeaves() throws {
        // A CA whose clock is 40 days behind: its leaves (30 days) expired ten days ago; its root
        // (ten years) is valid now.
        let past = Date() - 40 * 86_400
        let ca = try CertificateAuthority.generate(now: { past })
        let files = CertificateFiles()
        try files.certificate("root", ca.rootCertificateDER)
        try files.leaf("old", try ca.mintLeaf(forHost: "old.example.test"))
        let server = try Server(files: files, leaf: "old")
        let expired = try verdicts(files, port: server.port, host: "old.example.test", root: "root")
        server.stop()
        expect(expired, .rejected, because: "expired")
        #expect(expired["python ssl"]?.1.contains("certificate has expired") == true, "\(expired["python ssl"]?.1 ?? "")")

        let current = try CertificateAuthority.generate()
        try files.certificate("current", current.rootCertificateDER)
        try files.leaf("address", try current.mintLeaf(forHost: "127.0.0.1"))
        let addressed = try Server(files: files, leaf: "address")
        defer { addressed.stop() }
        let verdicts = try verdicts(files, port: addressed.port, host: "127.0.0.1", root: "current")
        // gnutls-cli sends no SNI for an address and matches it against iPAddress SANs; all three must accept.
        expect(verdicts, .accepted, because: "for its address")
    }
}

extension CertificateFiles {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
