import Foundation
import Linux
import PacketTunnel
import Shared
import TestSupport
import Testing

/// More of the end-to-end list, through the same in-process tunnel as `TunnelEndToEndTests`:
/// IPv6, many connections at once, both close orders, and a DNS lookup through the resolver the
/// namespace is given. Needs root.
@Suite("The tunnel end to end: more traffic", .serialized)
struct TunnelTrafficTests {
    typealias Tunnel = TunnelEndToEndTests.Tunnel

    @Test("a download over IPv6 arrives intact")
    func ipv6Download() async throws {
        let lab = try Lab()
        defer { lab.remove() }
        let www = TemporaryDirectory("www6")
        let content = Data((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7 >> 3) })
        try content.write(to: www.url.appendingPathComponent("file.bin"))
        let server = try LabScripts.start([LabScripts.python, "-m", "http.server", "8080", "--bind", Lab.serverIPv6,
                                            "--directory", www.url.path], in: lab.server)
        defer { LabScripts.stop(server) }
        try LabScripts.waitForListener(Lab.serverIPv6, 8080, from: lab.host)
        let tunnel = try await Tunnel(lab: lab)
        let output = tunnel.data.url.appendingPathComponent("download.bin")
        let curl = try lab.monitored.run(["curl", "-sS", "-g", "--max-time", "60", "-o", output.path,
                                          "http://[\(Lab.serverIPv6)]:8080/file.bin"])
        await tunnel.stop()
        #expect(curl.status == 0)
        #expect(try Data(contentsOf: output) == content)
        let flows = try await tunnel.store.recentFlows(limit: 20, before: nil)
        #expect(flows.contains { $0.key.proto == .tcp && $0.key.endpointA.address.version == .v6 && $0.bytesIn >= UInt64(content.count) })
    }

    @Test("200 connections at once all complete, and each is its own flow in the history")
    func concurrentConnections() async throws {
        let lab = try Lab()
        defer { lab.remove() }
        let www = TemporaryDirectory("www-many")
        try Data("hello".utf8).write(to: www.url.appendingPathComponent("small.txt"))
        let server = try LabScripts.start([LabScripts.python, "-m", "http.server", "8080", "--bind", Lab.serverIPv4,
                                            "--directory", www.url.path], in: lab.server)
        defer { LabScripts.stop(server) }
        try LabScripts.waitForListener(Lab.serverIPv4, 8080, from: lab.host)
        let tunnel = try await Tunnel(lab: lab)
        let client = LabScripts.parallelFetch("http://\(Lab.serverIPv4):8080/small.txt", count: 200, expected: "hello")
        let answer = try lab.monitored.run(client)
        await tunnel.stop()
        #expect(answer.standardOutput == "200\n")
        let flows = try await tunnel.store.recentFlows(limit: 500, before: nil)
        #expect(flows.filter { $0.key.proto == .tcp }.count >= 200)
    }

    @Test("a server that closes first and a client that resets both end cleanly, the reset reaching the server as a reset")
    func closeOrders() async throws {
        let lab = try Lab()
        defer { lab.remove() }
        let scratch = TemporaryDirectory("close-orders")
        let verdict = scratch.url.appendingPathComponent("server-read")
        // After the readiness probe's connection: on the first, the server sends and closes first;
        // on the second, it waits for the client's reset.
        let serverScript = """
        import socket
        s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(('\(Lab.serverIPv4)', 9000)); s.listen(); s.settimeout(30)
        c, _ = s.accept(); c.close()
        c, _ = s.accept(); c.sendall(b'bye'); c.close()
        c, _ = s.accept(); c.settimeout(10)
        try:
            read = 'end of stream' if c.recv(100) == b'' else 'data'
        except ConnectionResetError:
            read = 'reset'
        open('\(verdict.path)', 'w').write(read)
        """
        let server = try LabScripts.start([LabScripts.python, "-c", serverScript], in: lab.server)
        defer { LabScripts.stop(server) }
        try LabScripts.waitForListener(Lab.serverIPv4, 9000, from: lab.host)   // the probe is the first connection
        let tunnel = try await Tunnel(lab: lab)
        let clientScript = """
        import socket, struct
        c = socket.create_connection(('\(Lab.serverIPv4)', 9000), 10)
        received = b''
        while True:
            chunk = c.recv(100)
            if not chunk: break
            received += chunk
        c.close()
        print(received.decode())
        c = socket.create_connection(('\(Lab.serverIPv4)', 9000), 10)
        c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack('ii', 1, 0))
        c.close()   # linger 0: an RST instead of a FIN
        print('sent reset')
        """
        let client = try lab.monitored.run([LabScripts.python, "-c", clientScript])
        #expect(client.standardOutput == "bye\nsent reset\n")
        server.waitUntilExit()
        await tunnel.stop()
        #expect(try String(contentsOf: verdict, encoding: .utf8) == "reset", "the client's reset must not read as its end")
        #expect(tunnel.runtime.relayStats.tcpFlowsOpened >= 1)
        #expect(tunnel.runtime.relayStats.tcpFlowsClosed == tunnel.runtime.relayStats.tcpFlowsOpened)
    }

    @Test("a datagram to a port nothing listens on fails the sender at once, as the server's host refused it")
    func udpClosedPort() async throws {
        let lab = try Lab()
        defer { lab.remove() }
        let tunnel = try await Tunnel(lab: lab)
        let client = try lab.monitored.run([LabScripts.python, "-c", """
            import socket
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.connect(('\(Lab.serverIPv4)', 9001)); s.settimeout(10); s.send(b'anyone?')
            try:
                s.recv(100); print('answered')
            except ConnectionRefusedError:
                print('refused')
            except socket.timeout:
                print('timed out')
            """])
        await tunnel.stop()
        #expect(client.standardOutput == "refused\n")
    }

    @Test("a name is resolved through the resolver the namespace was given, across the tunnel")
    func dnsLookup() async throws {
        let lab = try Lab()
        defer { lab.remove() }
        let responder = LabScripts.dnsResponder(bind: Lab.serverIPv4, answer: Lab.serverIPv4)
        let server = try LabScripts.start(responder, in: lab.server)
        defer { LabScripts.stop(server) }
        let resolvConf = try NamespaceResolvConf(namespace: lab.monitored.name, servers: [IPAddress(parsing: Lab.serverIPv4)!])
        defer { resolvConf.remove() }
        let tunnel = try await Tunnel(lab: lab)
        let lookup = try lab.monitored.run([LabScripts.python, "-c",
                                            "import socket; print(socket.gethostbyname('lab.test'))"])
        await tunnel.stop()
        #expect(lookup.standardOutput == "198.19.0.2\n")
        #expect(tunnel.runtime.relayStats.dnsQueriesSent >= 1)
        #expect(tunnel.runtime.relayStats.dnsRepliesReceived >= 1)
    }
}
