import Foundation
import Linux
import TestSupport
import Testing

/// Issue 27: real clients through real proxies, tshark as the oracle. curl asks an HTTP proxy with
/// CONNECT (`-p -x`) and a SOCKS server for SOCKS5 with a host name, SOCKS5 with an address and
/// SOCKS4a; `openssl s_client -proxy` sends CONNECT and a ClientHello without SNI. Each tunnel
/// carries TLS 1.3 to `openssl s_server`. `tunnelvision analyze --json` must report each target
/// as tshark reads it (`socks.remote_name`, `socks.v4a_dns_name`, `socks.dst`,
/// `http.request.uri`), name the flow by it only where the TLS inside announced nothing, and read
/// the TLS inside every tunnel.
/// Needs root, tshark (with dumpcap), curl and openssl.
@Suite("tunnelvision analyze reads the names real proxy clients send", .serialized)
struct ProxyOracleTests {
    static let tlsPort = 4433
    static let httpProxyPort = 3128
    static let socksPort = 1080

    @Test("every proxy request's target is tshark's, the name follows SNI > target > DNS, and the TLS inside is read")
    func analyzeAgreesWithTsharkOnProxies() throws {
        for tool in ["openssl", "curl", "dumpcap", "tshark", "timeout"] where ExternalCommand.locate(tool) == nil {
            throw HandshakeCapture.Failed(description: "\(tool) is not installed: scripts/test installs it")
        }
        let directory = TemporaryDirectory("proxy-capture")
        let file = try Self.record(in: directory)
        // A copy for a look in Wireshark, or a history for the web app: TUNNELVISION_PROXY_CAPTURE=FILE.
        if let keep = ProcessInfo.processInfo.environment["TUNNELVISION_PROXY_CAPTURE"] {
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(at: file, to: URL(fileURLWithPath: keep))
        }

        // tshark's reading: per client port, the target its proxy request named (the requests are
        // the frames to a proxy's port; a SOCKS reply carries an address of its own).
        let frames = try Tshark.fields(["tcp.srcport", "tcp.dstport", "socks.remote_name", "socks.v4a_dns_name",
                                        "socks.dst", "http.request.method", "http.request.uri", "tls.handshake.ja3",
                                        "tls.handshake.ja3s"], of: file)
        var targets: [String: String] = [:]
        for frame in frames {
            guard let port = frame["tcp.srcport"]?.first,
                  let proxyPort = frame["tcp.dstport"]?.first.flatMap({ Int($0) }),
                  [Self.httpProxyPort, Self.socksPort].contains(proxyPort) else { continue }
            if let name = frame["socks.remote_name"]?.first ?? frame["socks.v4a_dns_name"]?.first {
                targets[port] = name
            } else if let address = frame["socks.dst"]?.first, targets[port] == nil {
                targets[port] = address
            }
            if frame["http.request.method"]?.first == "CONNECT", let uri = frame["http.request.uri"]?.first {
                targets[port] = String(uri[..<(uri.lastIndex(of: ":") ?? uri.endIndex)])
            }
        }
        #expect(targets.count == 5, "tshark read \(targets)")
        // JA3 and JA3S of the TLS inside the tunnels, where tshark reads it (by the client's port).
        var ja3: [String: String] = [:], ja3s: [String: String] = [:]
        for frame in frames {
            guard let source = frame["tcp.srcport"]?.first, let destination = frame["tcp.dstport"]?.first else { continue }
            if let hash = frame["tls.handshake.ja3"]?.first, ja3[source] == nil { ja3[source] = hash }
            if let hash = frame["tls.handshake.ja3s"]?.first, ja3s[destination] == nil { ja3s[destination] = hash }
        }
        #expect(!ja3.isEmpty && !ja3s.isEmpty, "tshark read no hello inside a tunnel")

        let result = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["analyze", file.path, "--json"])
        try #require(result.status == 0, "analyze exited \(result.status): \(result.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let conversations = (report["conversations"] as? [[String: Any]] ?? []).filter { $0["proxy"] is [String: Any] }
        #expect(conversations.count == 5)
        let leaf = HandshakeCertificates.leafName
        var sources: [String] = []
        for conversation in conversations {
            let proxy = conversation["proxy"] as? [String: Any] ?? [:]
            let clientPort = (conversation["client"] as? String)?.split(separator: ":").last.map(String.init) ?? ""
            let at = Comment(rawValue: "\(conversation)")
            #expect(proxy["host"] as? String == targets[clientPort], at)
            #expect(proxy["port"] as? Int == Self.tlsPort, at)
            // The TLS inside the tunnel: TLS 1.3 answered, whatever the client announced.
            #expect((conversation["serverAnswer"] as? [String: Any])?["version"] as? Int == 0x0304, at)
            let prints = conversation["fingerprints"] as? [String: Any]
            #expect((prints?["ja4"] as? String)?.hasPrefix("t13") == true, at)
            if let hash = ja3[clientPort] { #expect(prints?["ja3"] as? String == hash, at) }
            if let hash = ja3s[clientPort] { #expect(prints?["ja3s"] as? String == hash, at) }
            #expect(conversation["streamOpening"] as? String
                    == (proxy["protocol"] as? String == "httpConnect" ? "httpRequest" : "unrecognised"), at)
            let sni = conversation["sni"] as? String
            sources.append(conversation["nameSource"] as? String ?? "none")
            #expect(conversation["name"] as? String == (sni ?? (targets[clientPort] == leaf ? leaf : nil)), at)
        }
        #expect(Set(conversations.compactMap { ($0["proxy"] as? [String: Any])?["protocol"] as? String })
                == ["httpConnect", "socks5", "socks4a"])
        #expect(sources.sorted() == ["proxy", "sni", "sni", "sni", "sni"])
    }

    /// Builds the lab, records the clients through both proxies on `veth-server`, and returns the
    /// file. Everything started is stopped, and the lab removed, before it returns.
    static func record(in directory: TemporaryDirectory) throws -> URL {
        let certificates = try HandshakeCertificates(in: directory.url)
        let file = directory.url.appendingPathComponent("proxies.pcap")
        let lab = try Lab()
        defer { lab.remove() }
        var servers: [Process] = []
        defer { servers.forEach(LabScripts.stop) }
        servers.append(try HandshakeCapture.start(["openssl", "s_server", "-www", "-quiet", "-cert", certificates.leaf,
                                                   "-key", certificates.leafKey, "-cert_chain", certificates.intermediate,
                                                   "-accept", "\(Lab.serverIPv4):\(tlsPort)", "-tls1_3"], in: lab.server))
        for (port, mode) in [(httpProxyPort, "http"), (socksPort, "socks")] {
            servers.append(try HandshakeCapture.start([LabScripts.python, "-c", ProxyLabScripts.proxy, Lab.serverIPv4,
                                                       String(port), mode, Lab.serverIPv4], in: lab.server))
        }
        for port in [tlsPort, httpProxyPort, socksPort] { try LabScripts.waitForListener(Lab.serverIPv4, port, from: lab.host) }

        let capture = try LabPacketCapture(interface: "veth-server", in: lab.server, file: file)
        defer { capture.abandon() }
        let leaf = HandshakeCertificates.leafName
        let url = "https://\(leaf):\(tlsPort)/"
        let curl = ["timeout", "20", "curl", "-sSk", "-o", "/dev/null", "-w", "%{http_code}"]
        for options in [["-p", "-x", "http://\(Lab.serverIPv4):\(httpProxyPort)"],
                        ["--socks5-hostname", "\(Lab.serverIPv4):\(socksPort)"],
                        ["--socks4a", "\(Lab.serverIPv4):\(socksPort)"],
                        ["--socks5", "\(Lab.serverIPv4):\(socksPort)", "--resolve", "\(leaf):\(tlsPort):\(Lab.serverIPv4)"]] {
            let answer = try HandshakeCapture.client(curl + options + [url], in: lab.host)
            guard answer == "200" else { throw HandshakeCapture.Failed(description: "curl \(options) answered \(answer)") }
        }
        // CONNECT, then a ClientHello with no server_name: the target is the only name.
        try HandshakeCapture.client(["sh", "-c", "echo | timeout 20 openssl s_client -connect \(leaf):\(tlsPort) "
                                     + "-proxy \(Lab.serverIPv4):\(httpProxyPort) -noservername"], in: lab.host)
        // Every connection to a proxy ended, and dumpcap wrote every packet: nothing is cut from the capture.
        try LabConnections.waitUntilEnded(in: lab.host)
        try capture.waitUntilWritten()
        let received = try capture.stop()
        let written = try Tshark.fields(["frame.number"], of: file).count
        guard written == received else { throw HandshakeCapture.Failed(description: "dumpcap saw \(received) packets, the file holds \(written)") }
        return file
    }
}
