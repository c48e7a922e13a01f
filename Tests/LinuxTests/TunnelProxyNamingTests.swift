import Foundation
import Linux
import PacketTunnel
import Shared
import TestSupport
import Testing

/// Issue 27's live check: through the tunnel, a connection opened with a proxy request keeps its
/// target, the TLS inside the tunnel is read as if it opened the stream, and a tunnel whose hello
/// announces no name is named by its target. Needs root, curl and openssl.
@Suite("Proxy requests are read live, through the tunnel", .serialized)
struct TunnelProxyNamingTests {
    typealias Tunnel = TunnelEndToEndTests.Tunnel

    @Test("curl --socks5-hostname and s_client -proxy: the targets, and the TLS 1.2 inside each tunnel")
    func proxiedFlows() async throws {
        let lab = try Lab()
        defer { lab.remove() }
        let keys = TemporaryDirectory("proxy-tls")
        let key = keys.url.appendingPathComponent("key.pem").path
        let certificate = keys.url.appendingPathComponent("cert.pem").path
        try ExternalCommand.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                                 "-nodes", "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=tls.lab.test"])
        var servers = [try LabScripts.start(["openssl", "s_server", "-accept", "4433", "-cert", certificate, "-key", key,
                                             "-tls1_2", "-www", "-quiet"], in: lab.server)]
        defer { servers.forEach(LabScripts.stop) }
        for (port, mode) in [(3128, "http"), (1080, "socks")] {
            servers.append(try HandshakeCapture.start([LabScripts.python, "-c", ProxyLabScripts.proxy, Lab.serverIPv4,
                                                       String(port), mode, Lab.serverIPv4], in: lab.server))
        }
        for port in [4433, 3128, 1080] { try LabScripts.waitForListener(Lab.serverIPv4, port, from: lab.host) }

        let tunnel = try await Tunnel(lab: lab)
        let socks = try lab.monitored.run(["curl", "-sSk", "--max-time", "20", "-o", "/dev/null", "--socks5-hostname",
                                           "\(Lab.serverIPv4):1080", "https://tls.lab.test:4433/"])
        let connect = try lab.monitored.run(["sh", "-c", "echo | timeout 20 openssl s_client -connect tls.lab.test:4433 "
                                             + "-proxy \(Lab.serverIPv4):3128 -noservername"])
        try await Task.sleep(for: .milliseconds(300))
        await tunnel.stop()
        #expect(socks.status == 0 && connect.status == 0)

        let flows = try await tunnel.store.recentFlows(limit: 50, before: nil)
        func flow(toPort port: UInt16) throws -> StoredFlow {
            try #require(flows.first { $0.key.proto == .tcp && ($0.key.endpointA.port == port || $0.key.endpointB.port == port) })
        }
        let socksFlow = try flow(toPort: 1080)
        #expect(socksFlow.proxyTarget == ProxyTarget(proxyProtocol: .socks5, host: "tls.lab.test", port: 4433))
        #expect(socksFlow.sni == "tls.lab.test" && socksFlow.name?.origin == .sni)
        let connectFlow = try flow(toPort: 3128)
        #expect(connectFlow.proxyTarget == ProxyTarget(proxyProtocol: .httpConnect, host: "tls.lab.test", port: 4433))
        #expect(connectFlow.sni == nil && connectFlow.name?.text == "tls.lab.test" && connectFlow.name?.origin == .proxy)
        #expect(connectFlow.streamOpening == .httpRequest && socksFlow.streamOpening == .unrecognised)
        for proxied in [socksFlow, connectFlow] {
            guard case .negotiated(let negotiated)? = proxied.serverTLS else {
                Issue.record("no server answer on \(proxied)")
                continue
            }
            #expect(negotiated.version == .tls12)
            guard case .chain(let chain)? = proxied.serverCertificates else {
                Issue.record("no certificate chain on \(proxied)")
                continue
            }
            #expect(chain.certificates.first?.subject.text == "CN=tls.lab.test")
        }
    }
}
