#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import Linux
import Shared
import Testing
import TestSupport

/// `tunnelvision up --interface`, the built binary, in a lab of three namespaces: a client, a
/// router that forwards between it and a server, and the server with a web server. The router
/// plays the machine: `up` runs inside it (`ip netns exec`) and watches its interfaces passively.
/// Needs root.
@Suite("up --interface: an interface watched passively as a service", .serialized)
struct PassiveServiceTests {
    final class Lab {
        let client: NetworkNamespace
        let router: NetworkNamespace
        let server: NetworkNamespace
        let web = Process()
        let site = TemporaryDirectory("tv-passive-site")
        static let serverAddress = "198.18.81.2"
        /// Each download's size: big enough for offloaded frames over the MTU, small enough that
        /// the forwarded one — seen twice on `any` — fits the ring (`PacketRing`) whole, with room to spare, even
        /// if the service gets no CPU while it passes (a busy CI machine): "no drops" must not
        /// assert a speed. (At 8 MiB a full run dropped 44 of 1 197 packets once.)
        static let bigBytes = 2 << 20

        init() throws {
            client = try NetworkNamespace.create(NamespaceName.make(prefix: "tvpc"))
            router = try NetworkNamespace.create(NamespaceName.make(prefix: "tvpr"))
            server = try NetworkNamespace.create(NamespaceName.make(prefix: "tvps"))
            try client.ip(["link", "add", "c0", "type", "veth", "peer", "name", "r0", "netns", router.name])
            try server.ip(["link", "add", "s0", "type", "veth", "peer", "name", "r1", "netns", router.name])
            for (namespace, link, address) in [(client, "c0", "198.18.80.2/24"), (router, "r0", "198.18.80.1/24"),
                                               (router, "r1", "198.18.81.1/24"), (server, "s0", "198.18.81.2/24")] {
                try namespace.ip(["link", "set", link, "addrgenmode", "none"])
                try namespace.ip(["addr", "add", address, "dev", link])
                try namespace.ip(["link", "set", link, "up"])
            }
            for namespace in [client, router, server] { try namespace.ip(["link", "set", "lo", "up"]) }
            try client.ip(["route", "add", "default", "via", "198.18.80.1"])
            try server.ip(["route", "add", "default", "via", "198.18.81.1"])
            _ = try router.run(["sysctl", "-q", "-w", "net.ipv4.ip_forward=1"])
            try Data(count: Self.bigBytes).write(to: site.url.appendingPathComponent("big.bin"))
            try UpNamespaceTests.Site.serve(web, in: server.name, address: Self.serverAddress, directory: site)
        }

        deinit {
            kill(web.processIdentifier, SIGKILL)
            web.waitUntilExit()
            client.delete()
            router.delete()
            server.delete()
        }

        /// `up --interface IF --foreground` inside the router, said live.
        func up(_ interface: String, _ data: TemporaryDirectory) throws -> (Process, output: Pipe, errors: Pipe) {
            let up = Process()
            up.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
            up.arguments = ["netns", "exec", router.name, try BuiltProduct.url("tunnelvision").path,
                            "up", "--interface", interface, "--foreground", "--data-dir", data.url.path]
            let output = Pipe(), errors = Pipe()
            up.standardOutput = output
            up.standardError = errors
            try up.run()
            return (up, output, errors)
        }

        /// A Python client in `namespace` that downloads big.bin, says its local port and the
        /// bytes it read, and keeps its socket until its input closes (SIGKILLed at the end).
        func download(from namespace: NetworkNamespace) throws -> (Process, port: Int, bytes: Int, hold: Pipe) {
            let script = """
                import socket, sys
                s = socket.create_connection(("\(Self.serverAddress)", 8080))
                s.sendall(b"GET /big.bin HTTP/1.0\\r\\n\\r\\n")
                n = 0
                while True:
                    d = s.recv(1 << 16)
                    if not d: break
                    n += len(d)
                print(s.getsockname()[1], n, flush=True)
                sys.stdin.read()
                """
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
            process.arguments = ["netns", "exec", namespace.name, "python3", "-c", script]   // exec: the pid is Python's
            let output = Pipe(), hold = Pipe()
            process.standardOutput = output
            process.standardInput = hold
            try process.run()
            let said = SocketOwnerLookupTests.line(output.fileHandleForReading).split(separator: " ").compactMap { Int($0) }
            guard said.count == 2 else { throw CommandError.failed(command: "python3", status: 1, standardError: "the client said \(said)") }
            return (process, said[0], said[1], hold)
        }
    }

    static func tunnelvision(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), arguments)
    }

    /// Each TCP flow of `flows --json` as Python reads it: "port port state pid bytes packets local",
    /// the two ends' ports in the history's order, the program's state and pid, bytes both ways,
    /// and the address of the machine's end (None when neither is).
    static func flowLines(_ data: TemporaryDirectory) throws -> [String] {
        let flows = try tunnelvision(["flows", "--json", "--data-dir", data.url.path])
        let script = """
            import json, sys
            for f in json.load(sys.stdin)["flows"]:
                if f["protocol"] != "tcp": continue
                p = f.get("program") or {}
                a, b = f["peers"]
                local = (f.get("local") or {}).get("address")
                print(a["port"], b["port"], p.get("state"), p.get("pid"), f["bytesIn"] + f["bytesOut"], f["packets"], local)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(flows.out.utf8))
        try input.fileHandleForWriting.close()
        let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return lines.split(separator: "\n").map(String.init)
    }

    /// The flow of `lines` with an end at `port`, split into its fields.
    static func flow(_ lines: [String], port: Int) -> [String]? {
        lines.map { $0.split(separator: " ").map(String.init) }.first { $0.count == 7 && ($0[0] == "\(port)" || $0[1] == "\(port)") }
    }

    @Test("up --interface any in a router: its own download is named with its program's pid, a forwarded one is not local and counted once, 64 KiB offload frames arrive whole, the kernel's drops are said; SIGTERM ends it")
    func watchesARouter() throws {
        let lab = try Lab()
        let data = TemporaryDirectory("tv-passive-any")
        let (up, output, errors) = try lab.up("any", data)
        defer { if up.isRunning { kill(up.processIdentifier, SIGKILL) }; up.waitUntilExit() }
        let live = SocketOwnerLookupTests.line(output.fileHandleForReading)
        #expect(live.hasPrefix("watching every interface, passively (nothing is routed or inspected)"), "\(live)")

        try #require(2 * Lab.bigBytes * 3 / 2 <= Int(PacketRing.blockSize * PacketRing.blockCount),
                     "the forwarded download, seen twice, no longer fits the ring with half again to spare")
        let own = try lab.download(from: lab.router)
        defer { kill(own.0.processIdentifier, SIGKILL); own.0.waitUntilExit() }
        let forwarded = try lab.download(from: lab.client)
        defer { kill(forwarded.0.processIdentifier, SIGKILL); forwarded.0.waitUntilExit() }
        #expect(own.bytes > Lab.bigBytes && forwarded.bytes > Lab.bigBytes)

        // Flows are written to the history within a second; the program's answer with them.
        var lines: [String] = []
        _ = try eventually(within: 15, poll: 100_000) {
            lines = try Self.flowLines(data)
            return Self.flow(lines, port: own.port)?[2] == "program" && Self.flow(lines, port: forwarded.port)?[2] == "notLocal"
        }
        let mine = try #require(Self.flow(lines, port: own.port), "\(lines)")
        #expect(mine[2] == "program" && mine[3] == "\(own.0.processIdentifier)" && mine[6] == "198.18.81.1", "\(mine)")
        let passing = try #require(Self.flow(lines, port: forwarded.port), "\(lines)")
        #expect(passing[2] == "notLocal" && passing[3] == "None" && passing[6] == "None", "\(passing)")

        let stats = try Self.tunnelvision(["stats", "--json", "--data-dir", data.url.path])
        #expect(stats.status == 0, "\(stats.err)")
        #expect(try PythonJSON.value(stats.out, "stats.shell.device.kernel.queueDrops") == "0", "\(stats.out)")
        #expect(try Int(PythonJSON.value(stats.out, "stats.shell.device.kernel.datagramsRead")) ?? 0 > 0)

        kill(up.processIdentifier, SIGTERM)
        #expect(UpNamespaceTests.Site.ended(up), "SIGTERM did not end the service")
        #expect(up.terminationStatus == 0, "\(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")

        // tshark reads the capture: each connection's SYN once (a forwarded packet is seen coming
        // in and going out: kept once), frames larger than the MTU whole, and the bytes the
        // history counted for the flow are the capture's.
        let ended = try Self.flowLines(data)
        let capture = try #require(try FileManager.default.contentsOfDirectory(at: DataDirectoryLayout.captures(in: data.url),
                                                                              includingPropertiesForKeys: nil).first)
        for port in [own.port, forwarded.port] {
            let frames = try Tshark.fields(["frame.len", "tcp.flags.syn", "tcp.flags.ack"], of: capture,
                                           options: ["-Y", "tcp.port == \(port)"])
            let openings = frames.filter { $0["tcp.flags.syn"] == ["1"] && $0["tcp.flags.ack"] == ["0"] }
            #expect(openings.count == 1, "port \(port): \(openings.count) SYNs")
            let bytes = frames.reduce(0) { $0 + (Int($1["frame.len"]?.first ?? "") ?? 0) }
            let recorded = try #require(Self.flow(ended, port: port))
            #expect(recorded[4] == "\(bytes)" && recorded[5] == "\(frames.count)", "port \(port): history \(recorded), capture \(bytes) bytes in \(frames.count) frames")
            #expect(frames.contains { (Int($0["frame.len"]?.first ?? "") ?? 0) > 1500 }, "port \(port): no frame larger than the MTU")
        }
    }

    @Test("up --interface on an interface that goes away stops by itself and says why; on one that does not exist it says so at once")
    func interfaceGoneAndMissing() throws {
        let lab = try Lab()
        let missing = try BuiltProduct.run(URL(fileURLWithPath: "/usr/sbin/ip"),
                                           ["netns", "exec", lab.router.name, try BuiltProduct.url("tunnelvision").path, "up",
                                            "--interface", "nosuch0", "--foreground", "--data-dir", TemporaryDirectory("tv-passive-missing").url.path])
        #expect(missing.status == 1 && missing.err.contains("no interface \"nosuch0\" in this network namespace"), "\(missing.err)")

        let data = TemporaryDirectory("tv-passive-gone")
        let (up, output, errors) = try lab.up("r0", data)
        defer { if up.isRunning { kill(up.processIdentifier, SIGKILL) }; up.waitUntilExit() }
        let live = SocketOwnerLookupTests.line(output.fileHandleForReading)
        #expect(live.hasPrefix("watching interface r0, passively"), "\(live)")
        try lab.router.ip(["link", "del", "r0"])
        #expect(UpNamespaceTests.Site.ended(up), "the service outlived its interface")
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(up.terminationStatus == 1 && said.contains("the interface r0 is gone"), "\(said)")
        let status = try Self.tunnelvision(["status", "--data-dir", data.url.path])
        #expect(status.out.contains("the interface r0 is gone"), "\(status.out)")
    }
}
