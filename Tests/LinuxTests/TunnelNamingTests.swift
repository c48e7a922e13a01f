import Foundation
import Linux
import PacketTunnel
import Shared
import TestSupport
import Testing

/// Issue 5's live check: through the tunnel, in a lab, a TLS connection by name leaves a flow
/// named by its SNI (with the offer and the answer), a plain HTTP flow is named by the DNS answer
/// that preceded it, and a QUIC flow is named from its Initial. Needs root, curl, openssl and
/// aioquic (scripts/test installs them).
@Suite("Flows are named live, through the tunnel", .serialized)
struct TunnelNamingTests {
    typealias Tunnel = TunnelEndToEndTests.Tunnel

    /// Sends a QUIC v1 client's first flight (its Initial) to `host`:443 and stops: no server is
    /// needed for the Initial to carry the ClientHello.
    static func quicInitial(to host: String, serverName: String) -> String {
        """
        import socket
        from aioquic.quic.configuration import QuicConfiguration
        from aioquic.quic.connection import QuicConnection
        configuration = QuicConfiguration(is_client=True, alpn_protocols=["h3"], server_name="\(serverName)")
        connection = QuicConnection(configuration=configuration)
        connection.connect(("\(host)", 443), now=0.0)
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        for data, _ in connection.datagrams_to_send(now=0.0):
            s.sendto(data, ("\(host)", 443))
        """
    }

    @Test("a TLS flow is named by SNI, an HTTP flow by DNS, a QUIC flow by its Initial")
    func namedFlows() async throws {
        let lab = try Lab()
        defer { lab.remove() }
        let tls = try LabTLS12Server(in: lab)
        defer { tls.stop() }
        let www = TemporaryDirectory("naming-www")
        try Data("named".utf8).write(to: www.url.appendingPathComponent("index.html"))
        let web = try LabScripts.start([LabScripts.python, "-m", "http.server", "8080", "--bind", Lab.serverIPv4,
                                        "--directory", www.url.path], in: lab.server)
        defer { LabScripts.stop(web) }
        let dns = try LabScripts.start(LabScripts.dnsResponder(bind: Lab.serverIPv4, answer: Lab.serverIPv4),
                                       in: lab.server)
        defer { LabScripts.stop(dns) }
        try LabScripts.waitForListener(Lab.serverIPv4, 4433, from: lab.host)
        try LabScripts.waitForListener(Lab.serverIPv4, 8080, from: lab.host)
        let resolvConf = try NamespaceResolvConf(namespace: lab.monitored.name, servers: [IPAddress(parsing: Lab.serverIPv4)!])
        defer { resolvConf.remove() }

        let tunnel = try await Tunnel(lab: lab)
        let https = try lab.monitored.run(["curl", "-sSk", "--max-time", "20", "-o", "/dev/null", "--resolve",
                                           "tls.lab.test:4433:\(Lab.serverIPv4)", "https://tls.lab.test:4433/"])
        let http = try lab.monitored.run(["curl", "-sS", "--max-time", "20", "http://web.lab.test:8080/"])
        let quic = try lab.monitored.run([LabScripts.python, "-c", Self.quicInitial(to: Lab.serverIPv4, serverName: "quic.lab.test")])
        // The QUIC Initial is sent and forgotten: stop once the tunnel has recorded its flow.
        #expect(try await eventually(within: .seconds(20)) {
            try await tunnel.store.recentFlows(limit: 50, before: nil).contains {
                $0.key.proto == .udp && ($0.key.endpointA.port == 443 || $0.key.endpointB.port == 443)
            }
        })
        await tunnel.stop()
        #expect(https.status == 0)
        #expect(http.standardOutput == "named")
        #expect(quic.status == 0, "\(quic.standardError)")

        let flows = try await tunnel.store.recentFlows(limit: 50, before: nil)
        let tlsFlow = try #require(flows.first { $0.key.proto == .tcp && ($0.key.endpointA.port == 4433 || $0.key.endpointB.port == 4433) })
        #expect(tlsFlow.sni == "tls.lab.test")
        #expect(tlsFlow.streamOpening == .tlsHandshake)
        #expect(tlsFlow.clientTLS != nil)
        LabTLS12Server.expectAnswerAndChain(of: tlsFlow)

        let webFlow = try #require(flows.first { $0.key.proto == .tcp && ($0.key.endpointA.port == 8080 || $0.key.endpointB.port == 8080) })
        #expect(webFlow.resolvedName?.name == "web.lab.test")
        #expect(webFlow.sni == nil)
        #expect(webFlow.streamOpening == .httpRequest)

        let quicFlow = try #require(flows.first { $0.key.proto == .udp && ($0.key.endpointA.port == 443 || $0.key.endpointB.port == 443) })
        #expect(quicFlow.sni == "quic.lab.test")
        #expect(quicFlow.quic?.version == .v1)
        #expect(quicFlow.clientTLS?.applicationProtocols == ["h3"])
    }
}
