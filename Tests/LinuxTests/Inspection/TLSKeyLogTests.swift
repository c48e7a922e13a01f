#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Linux
import PacketTunnel
import Shared
import TestSupport
import Testing

@Suite("The key log of inspected flows")
struct TLSKeyLogTests {
    let directory = TemporaryDirectory("keylog")

    func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

    @Test("tshark decrypts both legs' HTTP from a loopback capture with the key log, and not without it")
    func tsharkDecryptsBothLegs() throws {
        let host = "keylog.test"
        let certificates = try InspectionCertificates()
        try certificates.leaf("leaf", host: host)
        let minted = try certificates.minted("leaf", host: host)
        let keyLog = try TLSKeyLog(path: path("keys.log"), report: { _ in })
        let factory = try OpenSSLSessionFactory(mint: { _ in minted }, upstreamTrust: .file(URL(fileURLWithPath: certificates.root)),
                                                keyLog: keyLog)
        let (listener, serverLegPort) = try Loopback.listen()
        defer { close(listener) }
        let upstream = try PeerProgram(["openssl", "s_server", "-accept", "127.0.0.1:0", "-naccept", "1", "-www",
                                        "-cert", certificates.path("leaf.pem"), "-key", certificates.path("leaf.key")])
        #expect(upstream.waitFor("ACCEPT"))
        let clientLegPort = try #require(UInt16(upstream.standardOutput.split(separator: "\n")
            .first { $0.hasPrefix("ACCEPT ") }?.split(separator: ":").last ?? ""))
        let capture = path("loopback.pcap")
        // dumpcap through an exec wrapper that restores SIGINT, which a test runner may block.
        let unblocked = "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); "
            + "signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])"
        let dumpcap = try PeerProgram(["python3", "-c", unblocked, "/usr/bin/dumpcap", "-i", "lo", "-P", "-w", capture,
                                       "-f", "tcp port \(serverLegPort) or tcp port \(clientLegPort)"])
        #expect(dumpcap.waitFor("File: "), "dumpcap: \(dumpcap.standardError)")

        // The leg toward the app: curl is the app, our server session answers it.
        let curl = try PeerProgram(["curl", "-sS", "--http1.1", "--cacert", certificates.root,
                                    "--resolve", "\(host):\(serverLegPort):127.0.0.1", "https://\(host):\(serverLegPort)/asked-by-the-app"])
        let answer = "HTTP/1.1 200 OK\r\nContent-Length: 9\r\nConnection: close\r\n\r\nfrom-leaf"
        let appLeg = shuttle(try factory.makeServer(host: host, applicationProtocol: nil), over: try Loopback.accept(listener), cues: [
            ShuttleCue(condition: .plaintextContains("\r\n\r\n"), plaintext: Data(answer.utf8), thenClose: true),
        ])
        #expect(curl.finish() == 0, "curl: \(curl.standardError)")
        #expect(curl.standardOutput == "from-leaf")
        #expect(appLeg.established)

        // The leg toward the server: our client session asks s_server.
        let serverLeg = shuttle(try factory.makeClient(host: host, applicationProtocols: []),
                                over: try Loopback.connect(port: clientLegPort), cues: [
            ShuttleCue(condition: .established, plaintext: Data("GET /asked-by-the-tunnel HTTP/1.0\r\n\r\n".utf8)),
        ])
        upstream.finish()
        #expect(serverLeg.established)
        // dumpcap hands the kernel's packets over in blocks: stop it once the file holds both requests.
        let asked: Set<String> = ["/asked-by-the-app", "/asked-by-the-tunnel"]
        func requests() -> Set<String> {
            let read = try? Tshark.fields(["http.request.uri"], of: URL(fileURLWithPath: capture),
                                          options: ["-o", "tls.keylog_file:\(path("keys.log"))", "-Y", "http.request"])
            return Set((read ?? []).flatMap { $0["http.request.uri"] ?? [] })
        }
        #expect(eventually(within: 20, poll: 100_000) { requests() == asked }, "the capture holds \(requests())")
        dumpcap.interrupt()
        dumpcap.finish()

        let withKeys = try Tshark.fields(["http.request.uri"], of: URL(fileURLWithPath: capture),
                                         options: ["-o", "tls.keylog_file:\(path("keys.log"))", "-Y", "http.request"])
        #expect(Set(withKeys.flatMap { $0["http.request.uri"] ?? [] }) == asked)
        let withoutKeys = try Tshark.fields(["http.request.uri"], of: URL(fileURLWithPath: capture), options: ["-Y", "http.request"])
        #expect(withoutKeys.isEmpty)

        let lines = try String(contentsOfFile: path("keys.log"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == keyLog.linesWritten)
        #expect(lines.allSatisfy { $0.split(separator: " ").count == 3 }, "each line: LABEL CLIENT_RANDOM SECRET")
        #expect(keyLog.linesFailed == 0)
    }

    @Test("the key log is created 0600, appended to, and refused over a symlink or when others may read it")
    func fileRules() throws {
        let keys = path("created.log")
        let previous = umask(0)
        defer { umask(previous) }
        let log = try TLSKeyLog(path: keys, report: { _ in })
        log.append(line: "CLIENT_RANDOM 00 11")
        var status = stat()
        #expect(stat(keys, &status) == 0 && status.st_mode & 0o777 == 0o600)

        let reopened = try TLSKeyLog(path: keys, report: { _ in })
        reopened.append(line: "CLIENT_RANDOM 22 33")
        #expect(try String(contentsOfFile: keys, encoding: .utf8) == "CLIENT_RANDOM 00 11\nCLIENT_RANDOM 22 33\n")

        let target = path("target")
        try Data("untouched".utf8).write(to: URL(fileURLWithPath: target))
        chmod(target, 0o600)
        #expect(symlink(target, path("link.log")) == 0)
        #expect(throws: TLSKeyLogError.symbolicLink(path: path("link.log"))) { _ = try TLSKeyLog(path: path("link.log"), report: { _ in }) }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "untouched")

        let open = path("open.log")
        try Data().write(to: URL(fileURLWithPath: open))
        chmod(open, 0o644)
        #expect(throws: TLSKeyLogError.readableByOthers(path: open, mode: 0o644)) { _ = try TLSKeyLog(path: open, report: { _ in }) }

        #expect(throws: TLSKeyLogError.notRegularFile(path: "/dev/null")) { _ = try TLSKeyLog(path: "/dev/null", report: { _ in }) }
    }
}
