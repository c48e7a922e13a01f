import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// `tunnelvision live` as a person uses it: driven in a real terminal (tmux) while a download runs
/// through a real tunnel in a lab — `run` inside the lab's host namespace, a real HTTP server in
/// its server namespace, curl throttled so the download lasts several seconds. Needs root.
@Suite("tunnelvision live", .serialized)
struct LiveCommandTests {
    /// tmux on a socket of this test's own, so no other tmux is touched.
    struct Tmux {
        let socket = "tvlive-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        func run(_ arguments: [String]) throws -> String {
            try ExternalCommand.run(["tmux", "-L", socket, "-f", "/dev/null"] + arguments).standardOutput
        }
        func capture() throws -> String { try run(["capture-pane", "-p", "-t", "live"]) }
        func format(_ text: String) throws -> String {
            try run(["display-message", "-p", "-t", "live", text]).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        func kill() { _ = try? run(["kill-server"]) }
    }

    static let pacedServer = """
    import http.server, sys, time
    class Paced(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            size, chunk = 6_000_000, 40_000
            self.send_response(200)
            self.send_header("Content-Length", str(size))
            self.end_headers()
            sent = 0
            while sent < size:
                n = min(chunk, size - sent)
                self.wfile.write(bytes(n))
                sent += n
                time.sleep(0.1)
        def log_message(self, *args):
            pass
    http.server.ThreadingHTTPServer((sys.argv[1], int(sys.argv[2])), Paced).serve_forever()
    """

    /// "received 390.6 KiB/s" → bytes per second.
    static func receivedRate(_ screen: String) -> Double? {
        rate(after: "received ", in: screen)
    }

    /// "this session: 2.3 MiB received" → bytes.
    static func sessionReceived(_ screen: String) -> Double? {
        guard let line = screen.split(separator: "\n").first(where: { $0.hasPrefix("this session: ") }) else { return nil }
        return amount(line.dropFirst("this session: ".count).split(separator: " ").prefix(2).joined(separator: " "))
    }

    static func rate(after label: String, in screen: String) -> Double? {
        guard let line = screen.split(separator: "\n").first(where: { $0.hasPrefix(label) }) else { return nil }
        let text = line.dropFirst(label.count).prefix { $0 != "," }
        guard text.hasSuffix("/s") else { return nil }
        return amount(String(text.dropLast(2)))
    }

    static func amount(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count == 2, let value = Double(parts[0]) else { return nil }
        let scale: [Substring: Double] = ["B": 1, "KiB": 1024, "MiB": 1_048_576, "GiB": 1_073_741_824]
        return scale[parts[1]].map { value * $0 }
    }

    static func waitFor(_ seconds: Double, _ what: () throws -> Bool) rethrows -> Bool {
        try eventually(within: seconds, poll: 100_000, what)
    }

    @Test("during a throttled download the dashboard's received rate is non-zero and moving, q restores the terminal, and a pipe gets a JSON line a second")
    func dashboardDuringDownload() throws {
        let lab = try Lab()
        defer { lab.remove() }
        let work = TemporaryDirectory("live-command")
        // The server paces itself: 40 000 bytes every tenth of a second, 6 MB in about 15 s — a
        // steady rate, where a client-side limit (curl --limit-rate) pauses in bursts of a second.
        let script = work.url.appendingPathComponent("paced_server.py")
        try Self.pacedServer.write(to: script, atomically: true, encoding: .utf8)
        let server = try LabScripts.start([LabScripts.python, script.path, Lab.serverIPv4, "8080"], in: lab.server)
        defer { LabScripts.stop(server) }
        try LabScripts.waitForListener(Lab.serverIPv4, 8080, from: lab.host)

        let data = work.url.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let tunnelvision = try BuiltProduct.url("tunnelvision").path
        let sttyAfter = work.url.appendingPathComponent("stty.txt")

        // The dashboard first, in a 100×40 terminal: no tunnel yet, so it says so and waits.
        let tmux = Tmux()
        defer { tmux.kill() }
        _ = try tmux.run(["new-session", "-d", "-s", "live", "-x", "100", "-y", "40",
                          "sh -c '\(tunnelvision) live --data-dir \(data.path); stty -a > \(sttyAfter.path); sleep 30'"])
        #expect(try Self.waitFor(10) { try tmux.capture().contains("no tunnel on \(data.path)") })
        #expect(try tmux.format("#{alternate_on}") == "1")

        // The download: 6 MB at 400 kB/s, about 15 s.
        let run = Process()
        run.executableURL = URL(fileURLWithPath: ExternalCommand.locate("ip") ?? "/usr/sbin/ip")
        run.arguments = Array(lab.host.command([tunnelvision, "run", "--data-dir", data.path, "--", "curl", "-sS",
                                                "--max-time", "60", "-o", "/dev/null",
                                                "http://\(Lab.serverIPv4):8080/big.bin"]).dropFirst())
        run.standardOutput = FileHandle.nullDevice
        run.standardError = FileHandle.nullDevice
        try run.run()
        defer { if run.isRunning { LabScripts.stop(run) } }

        // The first non-zero rate may cover a partial second (the download starting inside the
        // sampling window), so wait for the steady rate rather than the first sign of life.
        let moved = try Self.waitFor(15) { (Self.receivedRate(try tmux.capture()) ?? 0) > 0 }
        #expect(moved, "the received rate never left zero:\n\((try? tmux.capture()) ?? "")")
        let steady = try Self.waitFor(5) { (Self.receivedRate(try tmux.capture()) ?? 0) > 50_000 }
        let first = try tmux.capture()
        #expect(steady, "the received rate never reached the paced 400 kB/s:\n\(first)")
        #expect(first.contains("live — session"))
        let firstTotal = Self.sessionReceived(first) ?? 0
        var second = first
        _ = try Self.waitFor(10) {   // the paced 400 kB/s for a second and more
            second = try tmux.capture()
            return (Self.sessionReceived(second) ?? 0) > firstTotal + 400_000
        }
        let (rate1, rate2) = (Self.receivedRate(first) ?? 0, Self.receivedRate(second) ?? 0)
        #expect(rate1 > 50_000 && rate2 > 50_000, "rates \(rate1) and \(rate2) B/s")
        let (total1, total2) = (Self.sessionReceived(first) ?? 0, Self.sessionReceived(second) ?? 0)
        #expect(total2 > total1 + 400_000, "received \(total1) then \(total2):\n\(second)")
        #expect(first.contains("198.19.0.2"), "the server is the busiest host:\n\(first)")
        #expect(first != second)

        // q: the dashboard ends and the terminal is as it was — main screen, cursor shown, input cooked.
        _ = try tmux.run(["send-keys", "-t", "live", "q"])
        #expect(Self.waitFor(5) { FileManager.default.fileExists(atPath: sttyAfter.path) })
        #expect(try Self.waitFor(5) { try tmux.format("#{alternate_on}") == "0" }, "the alternate screen stayed on")
        #expect(try Self.waitFor(5) { try tmux.format("#{cursor_flag}") == "1" }, "the cursor stayed hidden")
        let stty = try String(contentsOf: sttyAfter, encoding: .utf8)
        #expect(stty.contains(" icanon") && !stty.contains("-icanon") && !stty.contains("-echo "), "\(stty)")

        // Not a terminal: one JSON object a line, a line a second, until TERM (then exit 0).
        let live = Process()
        live.executableURL = URL(fileURLWithPath: tunnelvision)
        live.arguments = ["live", "--data-dir", data.path, "--json"]
        let printed = work.url.appendingPathComponent("live.jsonl")
        #expect(FileManager.default.createFile(atPath: printed.path, contents: nil))
        live.standardOutput = try FileHandle(forWritingTo: printed)
        try live.run()
        func printedLines() -> [String] {
            ((try? String(contentsOf: printed, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        #expect(Self.waitFor(10) { printedLines().count >= 3 }, "\(printedLines())")
        live.terminate()
        live.waitUntilExit()
        #expect(live.terminationStatus == 0)
        let lines = printedLines()
        #expect((3...5).contains(lines.count), "\(lines)")
        let objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.allSatisfy { $0["attached"] as? Bool == true && $0["state"] as? String == "live" })
        let received = objects.compactMap { $0["bytesIn"] as? Int }
        #expect(received.count == objects.count && received.last! > received.first!)
        let times = objects.compactMap { ($0["time"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) } }
        #expect(times.count == objects.count)
        for (earlier, later) in zip(times, times.dropFirst()) {
            #expect(abs(later.timeIntervalSince(earlier) - 1) < 0.3, "\(times)")
        }
        #expect(objects.dropFirst().contains { ($0["bytesInPerSecond"] as? Int ?? 0) > 50_000 })

        run.waitUntilExit()
        #expect(run.terminationStatus == 0)
    }
}
