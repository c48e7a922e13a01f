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
        let tls = try LabTLS12Server(in: lab)
        defer { tls.stop() }
        var servers: [Process] = []
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
        // The relay's sockets to both proxies ended: what they carried has been read.
        try LabConnections.waitUntilEnded(toPorts: [1080, 3128], in: lab.host)
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
        #expect(connectFlow.tlsStatus == .encrypted && socksFlow.tlsStatus == .encrypted)   // TLS inside the tunnel
        LabTLS12Server.expectAnswerAndChain(of: socksFlow)
        LabTLS12Server.expectAnswerAndChain(of: connectFlow)
    }
}
