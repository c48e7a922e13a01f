import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// `tunnelvision run` as a person types it, inside the lab's host namespace: a real curl through
/// the tunnel to a real server, then the summary, the history and the capture checked — the
/// capture by tshark. Needs root.
@Suite("tunnelvision run", .serialized)
struct RunCommandTests {
    @Test("curl through the tunnel gets the file intact; the summary, the history and tshark agree on the connection")
    func curlThroughTheTunnel() throws {
        let lab = try Lab()
        defer { lab.remove() }
        let work = TemporaryDirectory("run")
        let content = Data((0..<2_000_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
        let www = work.url.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        try content.write(to: www.appendingPathComponent("file.bin"))
        let server = try LabScripts.start([LabScripts.python, "-m", "http.server", "8080", "--bind", Lab.serverIPv4,
                                            "--directory", www.path], in: lab.server)
        defer { LabScripts.stop(server) }
        try LabScripts.waitForListener(Lab.serverIPv4, 8080, from: lab.host)

        let data = work.url.appendingPathComponent("data")
        let summaryFile = work.url.appendingPathComponent("summary.json")
        let output = work.url.appendingPathComponent("out.bin")
        let tunnelvision = try BuiltProduct.url("tunnelvision")
        let result = try BuiltProduct.run(try #require(URL(string: "file://" + (ExternalCommand.locate("ip") ?? "/usr/sbin/ip"))),
                                          lab.host.command([tunnelvision.path, "run", "--data-dir", data.path,
                                                            "--json-summary", summaryFile.path, "--",
                                                            "curl", "-sS", "--max-time", "60", "-o", output.path,
                                                            "http://\(Lab.serverIPv4):8080/file.bin"]).dropFirst().map { $0 })
        #expect(result.status == 0, "\(result.err)")
        #expect(try Data(contentsOf: output) == content)
        #expect(result.err.contains("1 connection:"))
        #expect(result.err.contains("198.19.0.2:8080"))

        let summary = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: summaryFile)) as? [String: Any])
        #expect(summary["exitStatus"] as? Int == 0)
        let connections = try #require(summary["connections"] as? [[String: Any]])
        let web = try #require(connections.first { ($0["remote"] as? [String: Any])?["port"] as? Int == 8080 })
        let bytesIn = try #require(web["bytesIn"] as? Int)
        #expect(bytesIn >= content.count && bytesIn < content.count * 11 / 10)

        // tshark reads the capture: both directions present, every checksum good.
        let captures = try #require(summary["captureFiles"] as? [[String: Any]])
        let capture = URL(fileURLWithPath: try #require(captures.first?["path"] as? String))
        // The namespace's own IPv6 chatter (router solicitations) is recorded too; the connection
        // is the TCP frames.
        let frames = try Tshark.fields(["ip.src", "ip.dst", "tcp.srcport", "tcp.checksum.status", "ip.checksum.status"],
                                       of: capture, options: ["-o", "tcp.check_checksum:TRUE", "-o", "ip.check_checksum:TRUE"])
            .filter { $0["tcp.srcport"] != nil }
        let toServer = frames.filter { $0["ip.dst"] == [Lab.serverIPv4] }
        let toDevice = frames.filter { $0["ip.src"] == [Lab.serverIPv4] }
        #expect(!toServer.isEmpty && !toDevice.isEmpty)
        #expect(frames.allSatisfy { $0["tcp.checksum.status"] == ["1"] && $0["ip.checksum.status"] == ["1"] })
        #expect(toServer.count + toDevice.count == frames.count)
        // The summary names the connection by the Community ID pycommunityid gives what tshark read.
        let opening = try #require(toServer.first)
        let client = try #require(opening["ip.src"]?.first)
        let clientPort = try #require(opening["tcp.srcport"]?.first.flatMap { UInt16($0) })
        #expect(web["communityID"] as? String
                == (try CommunityIDOracle.id(.init(proto: 6, source: client, destination: Lab.serverIPv4, ports: (clientPort, 8080)))))
    }

    @Test("each run's summary lists only its own connections, however many runs share the history")
    func runsOnOneHistoryKeepTheirOwnConnections() async throws {
        let lab = try Lab()
        defer { lab.remove() }
        let work = TemporaryDirectory("run-sessions")
        let www = work.url.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        try Data("hello\n".utf8).write(to: www.appendingPathComponent("index.txt"))
        let servers = try [8080, 8081].map { port in
            try LabScripts.start([LabScripts.python, "-m", "http.server", "\(port)", "--bind", Lab.serverIPv4,
                                  "--directory", www.path], in: lab.server)
        }
        defer { servers.forEach(LabScripts.stop) }
        for port in [8080, 8081] { try LabScripts.waitForListener(Lab.serverIPv4, port, from: lab.host) }

        let data = work.url.appendingPathComponent("data")
        // A stored opt-in this build does not honour is reported at the start, not silently ignored.
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try SettingsStore.encode(AppSettings(tlsInspectionEnabled: true)).write(to: DataDirectoryLayout.settings(in: data))
        let tunnelvision = try BuiltProduct.url("tunnelvision")
        let ip = URL(fileURLWithPath: ExternalCommand.locate("ip") ?? "/usr/sbin/ip")
        var remotePorts: [[Int]] = []
        for (run, port) in [8080, 8081, 8081].enumerated() {
            let summaryFile = work.url.appendingPathComponent("summary-\(run).json")
            let result = try BuiltProduct.run(ip, lab.host.command([tunnelvision.path, "run", "--data-dir", data.path,
                                                                    "--json-summary", summaryFile.path, "--",
                                                                    "curl", "-sS", "-o", "/dev/null",
                                                                    "http://\(Lab.serverIPv4):\(port)/index.txt"]).dropFirst().map { $0 })
            #expect(result.status == 0, "\(result.err)")
            // Inspection is on in the settings, but this run was not started with --inspect: it
            // decrypts nothing, and it is not a setting left unhonoured.
            #expect(!result.err.contains("which this build does not do"))
            let summary = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: summaryFile)) as? [String: Any])
            let connections = try #require(summary["connections"] as? [[String: Any]])
            remotePorts.append(connections.filter { $0["protocol"] as? String == "TCP" }
                .compactMap { ($0["remote"] as? [String: Any])?["port"] as? Int })
        }
        #expect(remotePorts == [[8080], [8081], [8081]])

        let store = try FlowStore(dataDirectory: data)
        let sessions = try await store.sessions()
        #expect(sessions.count == 3 && sessions.allSatisfy { $0.ended != nil })
        #expect(sessions.map(\.origin).first == "run curl -sS -o /dev/null http://\(Lab.serverIPv4):8080/index.txt")
        await store.close()
    }

    @Test("a command that is not there is reported with status 127, and nothing is left behind")
    func missingCommand() throws {
        let before = Set(try NetworkNamespace.names())
        let result = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["run", "--", "no-such-command-here"])
        #expect(result.status == 127)
        #expect(result.err.contains("no-such-command-here: command not found"))
        let left = try NamespacesLeftBehind.since(before)
        #expect(left.isEmpty, "left behind: \(left)")
    }

    @Test("a second run on a data directory in use is refused with the way out, and the first is untouched")
    func secondRunRefused() throws {
        // In the lab's host namespace, like every run that brings a tunnel up: its relay's sockets
        // live where it runs, and the root namespace's routes lead off the machine.
        let lab = try Lab()
        defer { lab.remove() }
        let data = TemporaryDirectory("run-busy")
        let tunnelvision = try BuiltProduct.url("tunnelvision")
        let ip = try #require(URL(string: "file://" + (ExternalCommand.locate("ip") ?? "/usr/sbin/ip")))
        let first = Process()
        first.executableURL = ip
        first.arguments = Array(lab.host.command([tunnelvision.path, "run", "--data-dir", data.url.path, "--", "sleep", "3"]).dropFirst())
        first.standardOutput = FileHandle.nullDevice
        first.standardError = FileHandle.nullDevice
        try first.run()
        // Wait until the first tunnel serves its control socket: it holds the ring by then.
        let socket = data.url.appendingPathComponent("control.sock").path
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
        let second = try BuiltProduct.run(ip, Array(lab.host.command([tunnelvision.path, "run", "--data-dir", data.url.path,
                                                                      "--", "true"]).dropFirst()))
        first.waitUntilExit()
        #expect(second.status == 1)
        #expect(second.err.contains("another tunnel is running"))
        #expect(second.err.contains("--data-dir"))
        #expect(first.terminationStatus == 0)
    }

    @Test("with a large MTU the transfer still arrives intact; an MTU out of range is refused")
    func largeMTU() throws {
        let lab = try Lab()
        defer { lab.remove() }
        let work = TemporaryDirectory("run-mtu")
        let www = work.url.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        let file = www.appendingPathComponent("file.bin")
        try ExternalCommand.run(["sh", "-c", "head -c 20000000 /dev/urandom > '\(file.path)'"])
        let server = try LabScripts.start([LabScripts.python, "-m", "http.server", "8080", "--bind", Lab.serverIPv4,
                                           "--directory", www.path], in: lab.server)
        defer { LabScripts.stop(server) }
        try LabScripts.waitForListener(Lab.serverIPv4, 8080, from: lab.host)
        let output = work.url.appendingPathComponent("out.bin")
        let tunnelvision = try BuiltProduct.url("tunnelvision")
        let ip = URL(fileURLWithPath: ExternalCommand.locate("ip") ?? "/usr/sbin/ip")
        let result = try BuiltProduct.run(ip, lab.host.command([tunnelvision.path, "run", "--mtu", "65520", "--data-dir",
                                                                work.url.appendingPathComponent("data").path, "--",
                                                                "curl", "-sS", "-o", output.path,
                                                                "http://\(Lab.serverIPv4):8080/file.bin"]).dropFirst().map { $0 })
        #expect(result.status == 0, "\(result.err)")
        #expect(try TunnelEndToEndTests.sha256(output) == TunnelEndToEndTests.sha256(file))

        let refused = try BuiltProduct.run(tunnelvision, ["run", "--mtu", "70000", "--", "true"])
        #expect(refused.status == 2)
        #expect(refused.err.contains("--mtu takes 1280…65520"))
    }
}
