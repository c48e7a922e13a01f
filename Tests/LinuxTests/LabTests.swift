import Foundation
import Linux
import TestSupport
import Testing

/// The lab itself: three namespaces, host and server joined over both families, gone afterwards.
/// Needs root.
@Suite("The lab of namespaces", .serialized)
struct LabTests {
    @Test("host and server reach each other over IPv4 and IPv6, and removal leaves nothing behind")
    func hostReachesServer() throws {
        let lab = try Lab()
        let names = [lab.host.name, lab.server.name, lab.monitored.name]
        #expect(Set(names).isSubset(of: Set(try NetworkNamespace.names())))

        // A UDP echo in the server namespace, asked from the host namespace, both families.
        let echo = """
        import socket, sys
        family = socket.AF_INET6 if ":" in sys.argv[1] else socket.AF_INET
        s = socket.socket(family, socket.SOCK_DGRAM)
        s.bind((sys.argv[1], 7000))
        s.settimeout(20)   # never outlives the test, whatever happens to it
        data, peer = s.recvfrom(100)
        s.sendto(data.upper(), peer)
        """
        let ask = """
        import socket, sys
        family = socket.AF_INET6 if ":" in sys.argv[1] else socket.AF_INET
        s = socket.socket(family, socket.SOCK_DGRAM)
        s.settimeout(5)
        for attempt in range(50):
            s.sendto(b"hello", (sys.argv[1], 7000))
            try:
                print(s.recvfrom(100)[0].decode()); break
            except socket.timeout:
                pass
        """
        for address in [Lab.serverIPv4, Lab.serverIPv6] {
            let server = Process()
            server.executableURL = URL(fileURLWithPath: try #require(ExternalCommand.locate("ip")))
            server.arguments = lab.server.command(["python3", "-c", echo, address]).dropFirst().map { $0 }
            // Not the test's own output: a child holding it open would keep `swift test` waiting.
            server.standardOutput = FileHandle.nullDevice
            server.standardError = FileHandle.nullDevice
            try server.run()
            let answer = try lab.host.run(["python3", "-c", ask, address])
            #expect(answer.standardOutput == "HELLO\n")
            server.waitUntilExit()
        }

        // The monitored namespace has no route anywhere until a tunnel is put in it.
        #expect(try lab.monitored.ip(["route", "show"]).standardOutput.isEmpty)

        lab.remove()
        #expect(Set(names).isDisjoint(with: Set(try NetworkNamespace.names())))
    }

    @Test("a namespace that cannot be removed is reported with the reason, once, never taken as gone")
    func removalFailureIsReported() throws {
        let lab = try Lab()
        // Someone else removed the server namespace first: deleting it again fails, and says why.
        try ExternalCommand.run(["ip", "netns", "delete", lab.server.name])
        let failures = lab.remove()
        #expect(failures.count == 1)
        #expect(failures.first?.description.contains("ip netns delete \(lab.server.name)") == true, "\(failures)")
        #expect(Set([lab.host.name, lab.monitored.name]).isDisjoint(with: Set(try NetworkNamespace.names())))
        #expect(lab.remove().isEmpty, "a second removal does nothing and reports nothing")
    }

    @Test("the wiring plan joins host and server by a veth pair with both families")
    func plan() {
        let commands = Lab.commands(host: "h", server: "s", monitored: "m")
        #expect(commands.first == ["ip", "link", "add", "veth-host", "netns", "h", "type", "veth", "peer", "name", "veth-server", "netns", "s"])
        #expect(commands.contains(["ip", "-n", "s", "addr", "add", "198.19.0.2/24", "dev", "veth-server"]))
        #expect(commands.contains(["ip", "-n", "h", "-6", "addr", "add", "fd00:19::1/64", "dev", "veth-host", "nodad"]))
    }

    @Test("the built binary finds the lab's scripts beside it")
    func scriptsAreBesideTheBuild() {
        #expect(LabScripts.missingScripts == nil)
    }

    @Test("a binary copied away from its build's resources refuses the demo with where it looked, and makes nothing")
    func demoWithoutScriptsRefusesClearly() throws {
        let elsewhere = TemporaryDirectory("moved")
        let copy = elsewhere.url.appendingPathComponent("tunnelvision")
        try FileManager.default.copyItem(at: try BuiltProduct.url("tunnelvision"), to: copy)
        let before = Set(try NetworkNamespace.names())
        let result = try BuiltProduct.run(copy, ["demo"])
        #expect(result.status == 1)
        #expect(result.err.contains("dns_responder.py") && result.err.contains(elsewhere.url.path + "/TunnelVision_Linux.resources"))
        let left = try NamespacesLeftBehind.since(before)
        #expect(left.isEmpty, "left behind: \(left)")
    }
}
