#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// A hostile local program against the control socket of a real `tunnelvision run` in a lab,
/// while data crosses the tunnel: the data path's round trips, the tunnel's memory and a later
/// `tunnelvision stats` are measured. Needs root.
@Suite("The control socket under a flood of local clients", .serialized)
struct ControlFloodTests {
    /// A TCP echo server (the lab's server namespace).
    static let echoServer = """
        import socketserver, sys
        class Echo(socketserver.BaseRequestHandler):
            def handle(self):
                while True:
                    data = self.request.recv(65536)
                    if not data:
                        return
                    self.request.sendall(data)
        class Server(socketserver.ThreadingTCPServer):
            allow_reuse_address = True
            daemon_threads = True
        Server((sys.argv[1], int(sys.argv[2])), Echo).serve_forever()
        """

    /// The monitored command: 100-byte round trips through the tunnel every 10 ms until the stop
    /// file appears, each recorded as [start, seconds] on CLOCK_MONOTONIC.
    static let probe = """
        import json, os, socket, sys, time
        host, port, out, stop = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
        s = socket.create_connection((host, port), timeout=60)
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        samples, message, give_up = [], b"x" * 100, time.monotonic() + 120
        while not os.path.exists(stop) and time.monotonic() < give_up:
            start = time.monotonic()
            s.sendall(message)
            got = b""
            while len(got) < len(message):
                chunk = s.recv(4096)
                if not chunk:
                    sys.exit("the echo connection closed")
                got += chunk
            samples.append([start, time.monotonic() - start])
            if len(samples) == 1:
                open(out + ".ready", "w").close()
            time.sleep(0.01)
        json.dump(samples, open(out, "w"))
        """

    /// The attack: 2 000 clients each sending 60 KB without a newline, 200 sending a command and
    /// never reading, 100 sending nothing and 100 half a line, all held past the server's deadline;
    /// then what each was told is read back.
    static let attacker = """
        import json, socket, sys, time
        path, hold = sys.argv[1], float(sys.argv[2])
        blob = b"A" * 60000
        held, failures, told = [], 0, {}
        start = time.monotonic()
        def open_client(payload):
            global failures
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                # Blocking: a full backlog makes the client wait its turn, as a real one would.
                s.connect(path)
                s.setblocking(False)
                if payload:
                    try:
                        s.send(payload)
                    except OSError:
                        pass
                held.append(s)
            except OSError:
                failures += 1
                s.close()
        for _ in range(2000):
            open_client(blob)
        for _ in range(200):
            open_client(b'{"command":"stats"}\\n')
        for _ in range(100):
            open_client(b"")
        for _ in range(100):
            open_client(b'{"command":"st')
        connected = time.monotonic()
        time.sleep(hold)
        for s in held:
            try:
                line = s.recv(65536).split(b"\\n")[0]
                key = json.loads(line).get("message", json.loads(line).get("response", "?"))[:40] if line else "nothing"
            except (OSError, ValueError):
                key = "reset"
            told[key] = told.get(key, 0) + 1
            s.close()
        print(json.dumps({"start": start, "end": time.monotonic(), "connectSeconds": connected - start,
                          "held": len(held), "connectFailures": failures, "told": told}))
        """

    /// The resident and peak memory of a process, in KiB.
    static func memory(of pid: Int32) -> (resident: Int, peak: Int)? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func field(_ name: String) -> Int? {
            status.split(separator: "\n").first { $0.hasPrefix(name + ":") }
                .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") }
        }
        guard let resident = field("VmRSS"), let peak = field("VmHWM") else { return nil }
        return (resident, peak)
    }

    @Test("2 000 clients sending 60 KB without a newline, and clients that never read, neither stall the tunnel's data nor grow its memory; stats answers afterwards")
    func floodDoesNotSlowTheTunnel() throws {
        let lab = try Lab()
        defer { lab.remove() }
        let work = TemporaryDirectory("control-flood")
        let scripts = work.url
        for (name, text) in [("echo.py", Self.echoServer), ("probe.py", Self.probe), ("attack.py", Self.attacker)] {
            try Data(text.utf8).write(to: scripts.appendingPathComponent(name))
        }
        let echo = try LabScripts.start([LabScripts.python, scripts.appendingPathComponent("echo.py").path,
                                         Lab.serverIPv4, "7100"], in: lab.server)
        defer { LabScripts.stop(echo) }
        try LabScripts.waitForListener(Lab.serverIPv4, 7100, from: lab.host)

        let data = work.url.appendingPathComponent("data")
        let samplesFile = work.url.appendingPathComponent("samples.json")
        let stopFile = work.url.appendingPathComponent("stop")
        let tunnelLog = work.url.appendingPathComponent("run.err")
        _ = FileManager.default.createFile(atPath: tunnelLog.path, contents: nil)
        let ip = URL(fileURLWithPath: ExternalCommand.locate("ip") ?? "/usr/sbin/ip")
        let tunnelvision = try BuiltProduct.url("tunnelvision")
        let run = Process()
        run.executableURL = ip
        // `ip netns exec` execs: the process is the tunnel itself, whose memory is measured.
        run.arguments = Array(lab.host.command([tunnelvision.path, "run", "--data-dir", data.path, "--",
                                                LabScripts.python, scripts.appendingPathComponent("probe.py").path,
                                                Lab.serverIPv4, "7100", samplesFile.path, stopFile.path]).dropFirst())
        run.standardOutput = FileHandle.nullDevice
        run.standardError = try FileHandle(forWritingTo: tunnelLog)
        try run.run()
        defer { if run.isRunning { kill(run.processIdentifier, SIGKILL); run.waitUntilExit() } }
        let ready = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: samplesFile.path + ".ready") && Date() < ready && run.isRunning {
            usleep(50_000)
        }
        try #require(FileManager.default.fileExists(atPath: samplesFile.path + ".ready"),
                     "the probe never crossed the tunnel: \(String(decoding: (try? Data(contentsOf: tunnelLog)) ?? Data(), as: UTF8.self))")
        let before = try #require(Self.memory(of: run.processIdentifier))

        // Sample the tunnel's memory while the attack runs.
        let sampler = MemorySampler(pid: run.processIdentifier, baseline: before.resident)
        let socketPath = DataDirectoryLayout.controlSocket(in: data).path
        let attack = try lab.host.run([LabScripts.python, scripts.appendingPathComponent("attack.py").path, socketPath, "4"])
        let peakDuringAttack = sampler.stop()
        let report = try #require(JSONSerialization.jsonObject(with: Data(attack.standardOutput.utf8)) as? [String: Any])
        let attackStart = try #require(report["start"] as? Double)
        let attackEnd = try #require(report["end"] as? Double)

        // After the attack, the person's own command is answered, with the refusals counted.
        let stats = try BuiltProduct.run(ip, Array(lab.host.command([tunnelvision.path, "stats", "--data-dir", data.path,
                                                                     "--json"]).dropFirst()))
        _ = FileManager.default.createFile(atPath: stopFile.path, contents: nil)
        run.waitUntilExit()
        #expect(run.terminationStatus == 0, "\(String(decoding: (try? Data(contentsOf: tunnelLog)) ?? Data(), as: UTF8.self))")

        let samples = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: samplesFile)) as? [[Double]])
        let during = samples.filter { $0[0] >= attackStart && $0[0] <= attackEnd }
        let worst = during.map { $0[1] }.max() ?? .infinity
        let median = during.map { $0[1] }.sorted().dropFirst(during.count / 2).first ?? .infinity
        let worstOverall = samples.map { $0[1] }.max() ?? .infinity
        let growth = peakDuringAttack - before.resident
        print("""
            control flood: \(report["held"] ?? "?") clients held, \(report["connectFailures"] ?? "?") connects failed, \
            connecting took \(String(format: "%.2f", report["connectSeconds"] as? Double ?? -1)) s, told \(report["told"] ?? "?")
            control flood: \(during.count) round trips through the tunnel during the attack \
            (\(String(format: "%.1f", attackEnd - attackStart)) s), median \(String(format: "%.1f", median * 1000)) ms, slowest \(String(format: "%.1f", worst * 1000)) ms \
            (\(String(format: "%.1f", worstOverall * 1000)) ms over the whole run)
            control flood: tunnel resident memory \(before.resident / 1024) MiB before, \(peakDuringAttack / 1024) MiB at most \
            during the attack (+\(growth / 1024) MiB)
            control flood: stats afterwards: \(stats.status == 0 ? "answered" : "failed: \(stats.err)")
            """)
        #expect(during.count > 50, "the data path made only \(during.count) round trips during the attack")
        #expect(worst < 0.5, "a round trip through the tunnel took \(worst) s during the attack")
        #expect(growth < 32 * 1024, "the tunnel grew by \(growth) KiB during the attack")

        #expect(stats.status == 0, "\(stats.err)")
        guard case .stats(let answer) = try ControlChannel.decodeResponse(Data(stats.out.utf8.dropLast())) else {
            Issue.record("not a stats answer: \(stats.out)")
            return
        }
        let control = try #require(answer.control, "the stats answer carries no control counters")
        print("control flood: the server's counters: \(control)")
        #expect(control.refusedOverLong > 0)
        #expect(control.refusedOverCap > 0)
        #expect(control.closedIdle > 0)
        #expect(control.commandsAnswered > 0)
    }
}

/// The largest resident size of a process seen while sampling every 20 ms on its own thread, in KiB.
final class MemorySampler: @unchecked Sendable {
    private let lock = NSLock()
    private var peak: Int
    private var running = true
    private var thread: Thread?

    init(pid: Int32, baseline: Int) {
        peak = baseline
        let thread = Thread { [self] in
            while lock.withLock({ running }) {
                if let now = ControlFloodTests.memory(of: pid) { lock.withLock { peak = max(peak, now.resident) } }
                usleep(20_000)
            }
        }
        self.thread = thread
        thread.start()
    }

    /// Stops sampling and hands back the peak.
    func stop() -> Int {
        lock.withLock { running = false }
        while thread?.isFinished == false { usleep(1_000) }
        return lock.withLock { peak }
    }
}
