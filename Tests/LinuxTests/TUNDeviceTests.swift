import Foundation
import Linux
import Shared
import Testing

/// The TUN device for real: an interface moved into a namespace of our own, configured by the
/// tunnel's plan, carrying a UDP exchange both ways with a Python program inside. Needs root.
@Suite("The TUN device in a namespace", .serialized)
struct TUNDeviceTests {
    static let prefix = "tvtest"
    static let peer = "198.19.7.7"

    @Test("the namespace plan moves the device in, addresses it, and routes both families through it")
    func plan() {
        let commands = TunnelNamespacePlan.commands(device: "tv0", namespace: "ns", mtu: 1500)
        #expect(commands.first == ["ip", "link", "set", "tv0", "netns", "ns"])
        #expect(commands.contains(["ip", "-n", "ns", "addr", "add", "198.18.0.2/24", "dev", "tv0"]))
        #expect(commands.contains(["ip", "-n", "ns", "-6", "addr", "add", "fd00:7::2/64", "dev", "tv0", "nodad"]))
        #expect(commands.contains(["ip", "-n", "ns", "route", "add", "default", "dev", "tv0"]))
        #expect(commands.contains(["ip", "-n", "ns", "-6", "route", "add", "default", "dev", "tv0"]))
        #expect(commands.contains(["ip", "-n", "ns", "link", "set", "lo", "up"]))
    }

    @Test("leftover namespaces are recognised by their dead creator, and only ours")
    func leftoverNames() throws {
        NamespaceName.removeLeftovers(prefix: Self.prefix)
        let stale = try NetworkNamespace.create("\(Self.prefix)-999999999-1")   // no such pid
        let live = try NetworkNamespace.create(NamespaceName.make(prefix: Self.prefix))
        defer { stale.delete(); live.delete() }
        #expect(NamespaceName.removeLeftovers(prefix: Self.prefix) == [stale.name])
        #expect(try NetworkNamespace.names().contains(live.name))
        #expect(try !NetworkNamespace.names().contains(stale.name))
    }

    @Test("a datagram sent inside the namespace is read from the device, and one written to it is received")
    func udpBothWays() throws {
        NamespaceName.removeLeftovers(prefix: Self.prefix)
        let namespace = try NetworkNamespace.create(NamespaceName.make(prefix: Self.prefix))
        defer { namespace.delete() }
        let device = try TUNDevice()
        defer { device.close() }
        try TunnelNamespacePlan.apply(device: device.name, namespace: namespace.name)

        // The program inside: send "ping" to the peer, wait for the answer, print it.
        let script = """
        import socket
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.settimeout(10)
        s.sendto(b"ping", ("\(Self.peer)", 9999))
        data, source = s.recvfrom(100)
        print(data.decode(), source[0], source[1])
        """
        let program = Process()
        program.executableURL = URL(fileURLWithPath: try #require(ExternalCommand.locate("ip")))
        program.arguments = ["netns", "exec", namespace.name, "python3", "-c", script]
        let output = Pipe()
        program.standardOutput = output
        try program.run()

        // Read until the UDP datagram arrives (IPv6 router chatter may come first).
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var request: ParsedPacket?
        var payload = Data()
        let deadline = Date().addingTimeInterval(10)
        while request == nil, Date() < deadline {
            let result = buffer.withUnsafeMutableBytes { device.read(into: $0) }
            guard case .processed(let count) = result else { usleep(2_000); continue }
            let datagram = Data(buffer[..<count])
            if let packet = try? PacketParser.parse(datagram, protocolFamily: AF_INET), packet.udp?.destinationPort == 9999 {
                request = packet
                payload = datagram[packet.udp!.payloadRange]
            }
        }
        let packet = try #require(request)
        #expect(packet.ip.source == TunnelAddressing.ipv4Address)
        #expect(packet.ip.destination == IPAddress(parsing: Self.peer))
        #expect(payload == Data("ping".utf8))

        let reply = try PacketEmitter.udp(source: packet.destination, destination: packet.source, payload: Data("pong".utf8))
        let written = reply.withUnsafeBytes { device.write($0) }
        #expect(written == .processed(reply.count))

        program.waitUntilExit()
        let answer = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(program.terminationStatus == 0)
        #expect(answer == "pong \(Self.peer) 9999\n")
    }

    @Test("closing the device removes its interface from the namespace")
    func closingRemovesTheInterface() throws {
        let namespace = try NetworkNamespace.create(NamespaceName.make(prefix: Self.prefix))
        defer { namespace.delete() }
        let device = try TUNDevice()
        try TunnelNamespacePlan.apply(device: device.name, namespace: namespace.name)
        #expect(try namespace.ip(["link", "show"]).standardOutput.contains(device.name))
        device.close()
        #expect(try !namespace.ip(["link", "show"]).standardOutput.contains(device.name))
    }
}
