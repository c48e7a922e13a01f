import CTunnelVision
import Foundation
@testable import Linux
import Posix
import Shared
import Testing

/// The routed target's rules in a lab "container": a namespace with its own uplink (a veth to a
/// second namespace) and default routes, and a real TUN moved into it. The kernel judges each
/// route (`ip route get`), and the target's rules and routes are compared byte for byte before
/// the plan and after it is removed — by `remove`, and by the sweep after the TUN vanished as
/// with a `kill -9`. Needs root.
@Suite("The routed target's rules in a lab", .serialized)
struct RoutedRoutingTests {
    final class Container {
        let target: NetworkNamespace
        let uplink: NetworkNamespace
        init() throws {
            target = try NetworkNamespace.create(NamespaceName.make(prefix: "tvrtc"))
            uplink = try NetworkNamespace.create(NamespaceName.make(prefix: "tvrtu"))
            try target.ip(["link", "add", "up0", "type", "veth", "peer", "name", "up1", "netns", uplink.name])
            try target.ip(["link", "set", "lo", "up"])
            // No link-local address of its own: the kernel would add one (and its route) a moment
            // after the link comes up, while the test compares the target's routes.
            try target.ip(["link", "set", "up0", "addrgenmode", "none"])
            try uplink.ip(["link", "set", "up1", "addrgenmode", "none"])
            try target.ip(["link", "set", "up0", "up"])
            try uplink.ip(["link", "set", "up1", "up"])
            try target.ip(["addr", "add", "198.18.77.2/24", "dev", "up0"])
            try target.ip(["-6", "addr", "add", "fd00:77::2/64", "dev", "up0", "nodad"])
            try uplink.ip(["addr", "add", "198.18.77.1/24", "dev", "up1"])
            try uplink.ip(["-6", "addr", "add", "fd00:77::1/64", "dev", "up1", "nodad"])
            try target.ip(["route", "add", "default", "via", "198.18.77.1"])
            try target.ip(["-6", "route", "add", "default", "via", "fd00:77::1"])
        }
        deinit {
            target.delete()
            uplink.delete()
        }

        /// Every rule and route of the target, as `ip` prints them.
        func snapshot() throws -> String {
            try [["-4", "rule", "show"], ["-6", "rule", "show"], ["-4", "route", "show", "table", "all"],
                 ["-6", "route", "show", "table", "all"]].map { try target.ip($0).standardOutput }.joined(separator: "--\n")
        }

        /// The lines that differ between the target's rules and routes now and `before`; none
        /// when they are byte for byte the same. A closed TUN's own routes go as it closes (the
        /// kernel takes the device down under its routing lock before close returns).
        func differences(from before: String) throws -> [String] {
            let now = try snapshot()
            let was = Set(before.split(separator: "\n")), became = Set(now.split(separator: "\n"))
            return was.subtracting(became).map { "gone: \($0)" }.sorted() + became.subtracting(was).map { "new: \($0)" }.sorted()
                + (now != before && was == became ? ["the same lines in another order"] : [])
        }

        /// A TUN made here and moved into the target, up.
        func tun() throws -> TUNDevice {
            let device = try TUNDevice()
            try ExternalCommand.run(["ip", "link", "set", device.name, "netns", target.name])
            try target.ip(["link", "set", device.name, "up"])
            return device
        }

        /// The target as it was, then with a TUN and both families routed through it.
        func routed() throws -> (before: String, device: TUNDevice, plan: RoutedPlan, routing: RoutedRouting) {
            let before = try snapshot()
            let device = try tun()
            let plan = RoutedPlan(device: device.name, families: [.v4, .v6], uplinkAddresses: RoutedRoutingTests.addresses)
            let routing = RoutedRouting(namespaceName: target.name)
            try routing.apply(plan)
            return (before, device, plan, routing)
        }

        /// The device the kernel would send `address` out of, with `extra` (`mark M`, `from A iif D`).
        func route(_ address: String, _ extra: [String] = []) throws -> String {
            let said = try target.ip(["route", "get", address] + extra).standardOutput
            let words = said.split(separator: " ").map(String.init)
            return words.firstIndex(of: "dev").map { words[$0 + 1] } ?? said
        }
    }

    static let addresses = [IPAddress(parsing: "198.18.77.2")!, IPAddress(parsing: "fd00:77::2")!]

    @Test("applied: beyond the default route through the TUN, marked or specific routes direct; removed: the rules and routes as before, byte for byte")
    func applyAndRemove() throws {
        let lab = try Container()
        let (before, device, plan, routing) = try lab.routed()
        #expect(try lab.route("198.18.99.9") == device.name)
        #expect(try lab.route("fd00:99::9") == device.name)
        #expect(try lab.route("198.18.99.9", ["mark", "0x7476"]) == "up0")
        #expect(try lab.route("fd00:99::9", ["mark", "0x7476"]) == "up0")
        #expect(try lab.route("198.18.77.1") == "up0", "the uplink's own subnet stays direct")
        #expect(try lab.route("127.0.0.1") == "lo")
        #expect(try routing.leftovers().rules.count == 6)
        #expect(routing.remove(plan).isEmpty)
        device.close()   // as `down` ends: its link's own addresses and routes go with it
        let differences = try lab.differences(from: before)
        #expect(differences.isEmpty, "\(differences)")
        #expect(try lab.route("198.18.99.9") == "up0")
    }

    @Test("strict reverse-path filtering passes a reply to the uplink's address only with its rule")
    func strictReversePath() throws {
        let lab = try Container()
        try lab.target.run(["sysctl", "-q", "-w", "net.ipv4.conf.all.rp_filter=1"])
        try lab.target.run(["sysctl", "-q", "-w", "net.ipv4.conf.up0.rp_filter=1"])
        let device = try lab.tun()
        defer { device.close() }
        let routing = RoutedRouting(namespaceName: lab.target.name)
        // A reply from beyond the uplink to the relay's socket, as the kernel checks it arriving.
        let reply = ["from", "198.18.99.9", "iif", "up0"]
        let without = RoutedPlan(device: device.name, families: [.v4], uplinkAddresses: [])
        try routing.apply(without)
        #expect(throws: CommandError.self, "dropped: its source routes back through the TUN") {
            try lab.target.ip(["route", "get", "198.18.77.2"] + reply)
        }
        routing.remove(without)
        let with = RoutedPlan(device: device.name, families: [.v4], uplinkAddresses: Self.addresses)
        try routing.apply(with)
        #expect(try lab.route("198.18.77.2", reply) == "lo", "delivered locally")
        routing.remove(with)
    }

    @Test("after the TUN vanished as with kill -9: traffic takes the target's own routes at once, and the sweep removes exactly what was left")
    func failOpenAndSweep() throws {
        let lab = try Container()
        let (before, device, plan, routing) = try lab.routed()
        // Someone else's rule at one of our priorities: reported, never removed.
        try lab.target.ip(["rule", "add", "lookup", "main", "priority", "29815"])
        device.close()
        #expect(try lab.route("198.18.99.9") == "up0")
        #expect(try lab.route("fd00:99::9") == "up0")
        let left = try routing.leftovers()
        #expect(Set(left.rules) == Set(plan.rules))
        #expect(left.foreign == ["priority=29815 src=all table=main"])
        #expect(routing.sweep(left).isEmpty)
        try lab.target.ip(["rule", "del", "lookup", "main", "priority", "29815"])
        let differences = try lab.differences(from: before)
        #expect(differences.isEmpty, "\(differences)")
        #expect(try routing.leftovers() == RoutedLeftovers())
    }

    /// `body` on a thread inside network namespace `name` (the tunnel's loop joins its target so).
    static func inNamespace<T: Sendable>(_ name: String, _ body: @escaping @Sendable () -> T) throws -> T {
        let descriptor = open("/var/run/netns/\(name)", O_RDONLY | O_CLOEXEC)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: T?
        nonisolated(unsafe) var joined: Int32 = 0
        let thread = Thread {
            joined = ctv_join_network_namespace(descriptor)
            if joined == 0 { result = body() }
            done.signal()
        }
        thread.start()
        done.wait()
        try #require(joined == 0, "could not join \(name): errno \(joined)")
        return try #require(result)
    }

    @Test("the relay's socket, carrying the mark, leaves by the target's own uplink while the default route goes into the TUN; the kernel keeps its mark")
    func markedSocketLeavesDirectly() throws {
        let lab = try Container()
        // A server beyond the target's default route: only the uplink's routes reach it.
        try lab.uplink.ip(["addr", "add", "198.18.99.9/32", "dev", "lo"])
        try lab.uplink.ip(["link", "set", "lo", "up"])
        let (_, device, plan, routing) = try lab.routed()
        defer {
            routing.remove(plan)
            device.close()
        }
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        server.arguments = ["netns", "exec", lab.uplink.name, "python3", "-c",
                            "import socket\ns = socket.create_server(('198.18.99.9', 7907))\nprint('ready', flush=True)\ns.accept()\nprint('accepted', flush=True)"]
        let output = Pipe()
        server.standardOutput = output
        try server.run()
        defer { if server.isRunning { server.terminate() }; server.waitUntilExit() }
        #expect(SocketOwnerLookupTests.line(output.fileHandleForReading) == "ready")
        #expect(try lab.route("198.18.99.9") == device.name, "unmarked, it would go into the TUN")

        let (connected, mark) = try Self.inNamespace(lab.target.name) { () -> (Bool, UInt32) in
            guard let (socket, first) = try? TCPSocket.connect(to: IPEndpoint(address: IPAddress(parsing: "198.18.99.9")!, port: 7907),
                                                              mark: RoutedPlan.mark) else { return (false, 0) }
            defer { socket.close() }
            var mark: UInt32 = 0
            var length = socklen_t(MemoryLayout<UInt32>.size)
            _ = getsockopt(socket.descriptor, SOL_SOCKET, SO_MARK, &mark, &length)
            let deadline = Date().addingTimeInterval(10)
            var state = first
            while case .inProgress = state, Date() < deadline {
                var ready = pollfd(fd: socket.descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, 100)
                state = socket.finishConnect()
            }
            if case .connected = state { return (true, mark) }
            return (false, mark)
        }
        #expect(mark == RoutedPlan.mark)
        #expect(connected, "the marked connect reached the server by the uplink")
        #expect(SocketOwnerLookupTests.line(output.fileHandleForReading) == "accepted")
    }

    @Test("the target's facts: the families it has a default route in, and the addresses of the devices they leave by")
    func facts() throws {
        let lab = try Container()
        let routing = RoutedRouting(namespaceName: lab.target.name)
        // A second device with a global address but no default route through it is no uplink.
        try lab.target.ip(["link", "add", "side0", "type", "veth", "peer", "name", "side1"])
        try lab.target.ip(["addr", "add", "198.18.88.2/24", "dev", "side0"])
        #expect(try routing.facts() == RoutedTargetFacts(families: [.v4, .v6], uplinkAddresses: Self.addresses))
        try lab.target.ip(["-6", "route", "del", "default"])
        #expect(try routing.facts() == RoutedTargetFacts(families: [.v4], uplinkAddresses: Self.addresses))
        try lab.target.ip(["route", "del", "default"])
        #expect(try routing.facts() == RoutedTargetFacts(families: [], uplinkAddresses: []))
        #expect(throws: RoutedLeftovers.Failure.self) {
            try RoutedTargetFacts.read(defaultRoutes: Data("Error".utf8), Data("[]".utf8), addresses: Data("[]".utf8))
        }
    }
}
