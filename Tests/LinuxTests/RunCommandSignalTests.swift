import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// `tunnelvision run` as a shell, `timeout`, a terminal and sudo drive it, always inside a
/// namespace of the test's own (never the root one). Needs root.
@Suite("run's command behaves as it would without us", .serialized)
struct RunCommandSignalTests {
    /// A namespace with loopback up (or down) for `tunnelvision run` to start in.
    final class Host {
        let namespace: NetworkNamespace
        let data = TemporaryDirectory("run-signals")
        init(loopbackUp: Bool = true) throws {
            namespace = try NetworkNamespace.create(NamespaceName.make(prefix: "tvsig"))
            if loopbackUp { try namespace.ip(["link", "set", "lo", "up"]) }
        }
        deinit { namespace.delete() }

        /// `ip netns exec NS [prefix…] tunnelvision run --data-dir D ARGS…`.
        func argv(_ arguments: [String], prefix: [String] = []) throws -> [String] {
            namespace.command(prefix + [try BuiltProduct.url("tunnelvision").path, "run", "--data-dir",
                                        data.url.appendingPathComponent("data").path] + arguments)
        }

        func run(_ arguments: [String], prefix: [String] = []) throws -> (status: Int32, out: String, err: String) {
            let argv = try argv(arguments, prefix: prefix)
            return try BuiltProduct.run(URL(fileURLWithPath: ExternalCommand.locate(argv[0]) ?? "/usr/sbin/ip"), Array(argv.dropFirst()))
        }

        /// Starts run in the background; its PID is tunnelvision's (ip netns exec execs).
        func start(_ arguments: [String]) throws -> (process: Process, err: URL) {
            let argv = try argv(arguments)
            let err = data.url.appendingPathComponent("err-\(UUID().uuidString)")
            _ = FileManager.default.createFile(atPath: err.path, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ExternalCommand.locate(argv[0]) ?? "/usr/sbin/ip")
            process.arguments = Array(argv.dropFirst())
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: err)
            try process.run()
            return (process, err)
        }
    }

    static func runNamespaces() throws -> Set<String> { Set(try NetworkNamespace.names().filter { $0.hasPrefix("tvrun-") }) }

    /// The run namespaces made since `before` whose maker is dead: left behind. Other suites'
    /// runs, alive at the same time, make their own and are not this test's.
    static func leftBehind(since before: Set<String>) throws -> Set<String> {
        try runNamespaces().subtracting(before).filter { name in
            guard let pid = name.split(separator: "-").dropFirst().first.flatMap({ pid_t($0) }) else { return true }
            return kill(pid, 0) != 0 && errno == ESRCH
        }
    }

    static func waitFor(_ marker: String, seconds: Double = 10) throws {
        guard try eventually(within: seconds, { try !ProcessTable.noneMatch(marker) }) else {
            throw CommandError.notFound("a process with \(marker)")
        }
    }

    /// What process `pid` has written so far (its wchar in /proc), 0 when it cannot be read.
    static func bytesWritten(by pid: pid_t) -> Int {
        let io = (try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8)) ?? ""
        return io.split(separator: "\n").first { $0.hasPrefix("wchar:") }
            .flatMap { Int($0.dropFirst("wchar:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
    }

    static func exitStatus(_ process: Process, within seconds: Double) -> Int32? {
        guard eventually(within: seconds, { !process.isRunning }) else { return nil }
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }

    @Test("yes | head -1 prints y and exits 0, with no broken pipe; the command's signal mask and ignored set are empty")
    func defaultSignals() throws {
        let host = try Host()
        let piped = try host.run(["--", "bash", "-c", "yes | head -1"])
        #expect(piped.status == 0 && piped.out == "y\n", "\(piped.err)")
        #expect(!piped.err.contains("Broken pipe") && !piped.err.contains("write error"))
        let status = try host.run(["--", "grep", "-E", "Sig(Blk|Ign)", "/proc/self/status"])
        #expect(status.out == "SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\n",
                "exit \(status.status): \(status.out.debugDescription) \(status.err)")
    }

    @Test("a signal run was started with ignored (nohup's HUP) starts ignored in the command too, as a shell passes it on")
    func inheritedIgnoredSignalsPassOn() throws {
        let host = try Host()
        // bash's `trap '' HUP` is nohup's SIG_IGN; exec keeps it for tunnelvision.
        let status = try host.run(["--", "grep", "SigIgn", "/proc/self/status"], prefix: ["bash", "-c", "trap '' HUP; exec \"$@\"", "nohup-like"])
        #expect(status.out == "SigIgn:\t0000000000000001\n", "\(status.out.debugDescription) \(status.err)")
    }

    @Test("timeout 2 ends run in about 2 s with status 124 and leaves no namespace or process")
    func underTimeout() throws {
        let host = try Host()
        let before = try Self.runNamespaces()
        let marker = "3133\(Int.random(in: 10_000...99_999))"
        let started = Date()
        let result = try host.run(["--", "sleep", marker], prefix: ["timeout", "2"])
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 124, "\(result.err)")
        #expect(elapsed < 5, "took \(elapsed) s")
        #expect(result.err.contains("was killed by signal 15"))
        #expect(try Self.leftBehind(since: before).isEmpty)
        #expect(try ProcessTable.noneMatch(marker))
    }

    @Test("kill -TERM to run ends the command by SIGTERM (143); HUP is forwarded (129) and the tunnel still comes down in order")
    func forwardedSignals() throws {
        let host = try Host()
        for (signal, status) in [(SIGTERM, Int32(143)), (SIGHUP, Int32(129))] {
            let marker = "3134\(Int.random(in: 10_000...99_999))"
            let (run, err) = try host.start(["--", "sleep", marker])
            try Self.waitFor("^sleep \(marker)")
            kill(run.processIdentifier, signal)
            #expect(Self.exitStatus(run, within: 5) == status)
            let said = try String(contentsOf: err, encoding: .utf8)
            #expect(said.contains("was killed by signal \(signal)") && said.contains("history:"), "\(said)")
            #expect(try ProcessTable.noneMatch(marker))
        }
    }

    @Test("Ctrl-C through a pseudo-terminal reaches the command once and ends run with 130")
    func controlC() throws {
        let host = try Host()
        let counter = host.data.url.appendingPathComponent("count_interrupts.py")
        try Data("""
            import os, signal, time
            count = 0
            def interrupted(*_):
                global count
                count += 1
            signal.signal(signal.SIGINT, interrupted)
            print("ready", flush=True)
            end = time.time() + 20
            while count == 0 and time.time() < end:
                time.sleep(0.05)
            time.sleep(1.0)
            print(f"interrupts={count}", flush=True)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
            """.utf8).write(to: counter)
        let terminal = host.data.url.appendingPathComponent("terminal.py")
        try Data("""
            import os, pty, select, sys, time
            pid, fd = pty.fork()
            if pid == 0:
                os.execvp(sys.argv[1], sys.argv[1:])
            out = b""
            def read(until, seconds):
                global out
                end = time.time() + seconds
                while time.time() < end and not until(out):
                    if select.select([fd], [], [], 0.1)[0]:
                        try:
                            data = os.read(fd, 4096)
                        except OSError:
                            return
                        if not data:
                            return
                        out += data
            read(lambda o: b"ready" in o, 15)
            os.write(fd, b"\\x03")
            read(lambda o: False, 10)
            _, status = os.waitpid(pid, 0)
            sys.stdout.write(out.decode(errors="replace"))
            print("STATUS", os.waitstatus_to_exitcode(status))
            """.utf8).write(to: terminal)
        for command in [[LabScripts.python, counter.path], ["sh", "-c", "echo ready; exec sleep 30"]] {
            let argv = try host.argv(["--"] + command)
            let result = try BuiltProduct.run(URL(fileURLWithPath: LabScripts.python), [terminal.path] + argv)
            #expect(result.out.contains("STATUS 130"), "\(result.out)")
            if command.count == 2 { #expect(result.out.contains("interrupts=1"), "\(result.out)") }
        }
    }

    @Test("the tunnel killed with -9 mid-download takes the command and all it started with it at once")
    func tunnelKilled() throws {
        let lab = try Lab()
        defer { lab.remove() }
        let work = TemporaryDirectory("run-kill9")
        let www = work.url.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        try ExternalCommand.run(["sh", "-c", "head -c 20000000 /dev/zero > '\(www.path)/big.bin'"])
        let server = try LabScripts.start([LabScripts.python, "-m", "http.server", "8080", "--bind", Lab.serverIPv4,
                                           "--directory", www.path], in: lab.server)
        defer { LabScripts.stop(server) }
        try LabScripts.waitForListener(Lab.serverIPv4, 8080, from: lab.host)
        let marker = "3135\(Int.random(in: 10_000...99_999))"
        let tunnelvision = try BuiltProduct.url("tunnelvision")
        let run = Process()
        run.executableURL = URL(fileURLWithPath: ExternalCommand.locate("ip") ?? "/usr/sbin/ip")
        run.arguments = Array(lab.host.command([tunnelvision.path, "run", "--data-dir", work.url.appendingPathComponent("data").path, "--",
                                                "sh", "-c", "setsid sleep \(marker) & curl -s --limit-rate 500k -o /dev/null http://\(Lab.serverIPv4):8080/big.bin?\(marker)"])
            .dropFirst())
        run.standardOutput = FileHandle.nullDevice
        run.standardError = FileHandle.nullDevice
        try run.run()
        try Self.waitFor("^curl .*\(marker)")
        try Self.waitFor("^sleep \(marker)")
        let pid = try #require(try ProcessTable.processes(matching: "^curl .*\(marker)").first)
        let namespace = try ExternalCommand.run(["ip", "netns", "identify", String(pid)]).standardOutput
            .trimmingCharacters(in: .whitespacesAndNewlines)
        defer {   // the next run's sweep removes what a killed run left; this test removes its own now
            _ = try? ExternalCommand.run(["ip", "netns", "delete", namespace])
            try? FileManager.default.removeItem(atPath: "/etc/netns/\(namespace)")
        }
        // Mid-download: curl has written its first 100 kB of the 20 MB to /dev/null.
        #expect(eventually(within: 20) { Self.bytesWritten(by: pid) > 100_000 }, "curl never got going")
        kill(run.processIdentifier, SIGKILL)
        let killed = Date()
        run.waitUntilExit()
        let gone = try eventually(within: 1 - Date().timeIntervalSince(killed)) { try ProcessTable.noneMatch(marker) }
        #expect(gone, "the command outlived the tunnel by more than a second")
    }

    @Test("through sudo the command runs as the user with its groups, HOME and usual descriptor limit; without, as root, and the summary says so")
    func sudoUser() throws {
        let host = try Host()
        let name = "tvt\(Int.random(in: 10_000...99_999))"
        try ExternalCommand.run(["groupadd", name + "g"])
        defer { _ = try? ExternalCommand.run(["groupdel", name + "g"]) }
        try ExternalCommand.run(["useradd", "-M", "-d", "/nonexistent-\(name)", "-G", name + "g", name])
        defer { _ = try? ExternalCommand.run(["userdel", name]) }
        let uid = try ExternalCommand.run(["id", "-u", name]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let gid = try ExternalCommand.run(["id", "-g", name]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let groups = try ExternalCommand.run(["id", "-G", name]).standardOutput
        let probe = ["--", "sh", "-c", "id -u; id -g; id -G; echo \"$HOME $USER $LOGNAME\"; ulimit -n"]
        let limited = ["env", "SUDO_UID=\(uid)", "SUDO_GID=\(gid)", "SUDO_USER=\(name)", "prlimit", "--nofile=1024:"]
        let asUser = try host.run(probe, prefix: limited)
        #expect(asUser.status == 0, "\(asUser.err)")
        #expect(asUser.out == "\(uid)\n\(gid)\n\(groups)/nonexistent-\(name) \(name) \(name)\n1024\n", "\(asUser.err)")
        #expect(!asUser.err.contains("ran as root"))

        let summary = host.data.url.appendingPathComponent("summary.json")
        let asRoot = try host.run(["--json-summary", summary.path] + probe,
                                  prefix: ["env", "-u", "SUDO_UID", "-u", "SUDO_GID", "-u", "SUDO_USER"])
        #expect(asRoot.out.hasPrefix("0\n0\n"), "\(asRoot.err)")
        #expect(asRoot.err.contains("id -G; echo \"$HOME $USER $LOGNAME\"; ulimit -n ran as root"))
        let json = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: summary)) as? [String: Any])
        #expect(json["ranAsRoot"] as? Bool == true)
    }

    @Test("in a namespace whose loopback is down run works at once, and a killed run leaves nothing")
    func loopbackDown() throws {
        let host = try Host(loopbackUp: false)
        let before = try Self.runNamespaces()
        let started = Date()
        let result = try host.run(["--", "sh", "-c", "echo inside"], prefix: ["timeout", "-k", "1", "20"])
        #expect(result.status == 0 && result.out == "inside\n", "\(result.err)")
        #expect(Date().timeIntervalSince(started) < 10)
        let marker = "3136\(Int.random(in: 10_000...99_999))"
        let (run, _) = try host.start(["--", "sleep", marker])
        try Self.waitFor("^sleep \(marker)")
        kill(run.processIdentifier, SIGTERM)
        #expect(Self.exitStatus(run, within: 5) == 143)
        #expect(try Self.leftBehind(since: before).isEmpty)
        #expect(try ProcessTable.noneMatch(marker))
    }
}
