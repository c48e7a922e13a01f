#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import Linux
import Shared
import Testing
import TestSupport

/// `tunnelvision up` in the background, `status` and `down`, the built binary, on the lab
/// container of `UpNamespaceTests`: up returns once the service is live, the service is a
/// process of its own, one runs per data directory, and down leaves the namespace as it was.
/// Needs root.
@Suite("up, status and down: a namespace's service in the background", .serialized)
struct UpServiceTests {
    typealias Site = UpNamespaceTests.Site

    static func tunnelvision(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let result = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), arguments)
        return (result.status, result.out, result.err)
    }

    /// `status --json`'s value at `path`, as Python reads it.
    static func status(_ data: TemporaryDirectory, _ path: String) throws -> String {
        try PythonJSON.value(try tunnelvision(["status", "--json", "--data-dir", data.url.path]).out, path)
    }

    /// The fields of /proc/PID/stat after the command name (state, ppid, pgrp, session, …).
    static func stat(_ pid: Int32) -> [String]? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return nil }
        return stat.split(separator: ")").last?.split(separator: " ").map(String.init)
    }

    /// Waits until the service lets go of its lock — what "it ended" means to status and up —
    /// by taking the lock itself (flock blocks until then), up to `seconds`; whether it did.
    static func lockReleased(_ data: TemporaryDirectory, within seconds: Double = 10) -> Bool {
        let descriptor = open(DataDirectoryLayout.serviceLock(in: data.url).path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        let released = DispatchSemaphore(value: 0)
        Thread {
            while flock(descriptor, LOCK_SH) != 0 && errno == EINTR {}
            close(descriptor)   // drops the shared lock at once
            released.signal()
        }.start()
        return released.wait(timeout: .now() + seconds) == .success
    }

    @Test("up returns once live and status names the service; a second up names it and starts nothing; curl is recorded; down stops it and the rules and routes are as before")
    func startsShowsAndStops() throws {
        let site = try Site()
        let lab = site.lab
        let before = try lab.snapshot()
        let data = TemporaryDirectory("tv-upsvc")
        let up = try Self.tunnelvision(["up", "--netns", lab.target.name, "--data-dir", data.url.path])
        #expect(up.status == 0, "\(up.err)")
        #expect(up.out.hasPrefix("monitoring network namespace \(lab.target.name) through tv"), "\(up.out)")
        let pid = try #require(Int32(try Self.status(data, "service.pid")), "\(up.out) \(up.err)")
        defer { if (try? ServiceLock.isHeld(in: data.url)) == true { kill(pid, SIGKILL) } }
        #expect(try Self.status(data, "state") == "\"live\"")
        #expect(try Self.status(data, "service.target") == "{\"kind\": \"netns\", \"name\": \"\(lab.target.name)\"}")
        // A process of its own: the leader of its own session, not up's child (up has ended).
        let fields = try #require(Self.stat(pid))
        #expect(fields.count > 3 && fields[3] == "\(pid)", "not its own session's leader: \(fields)")
        #expect(try lab.route("198.18.99.9").hasPrefix("tv"))

        let second = try Self.tunnelvision(["up", "--netns", lab.target.name, "--data-dir", data.url.path])
        #expect(second.status == 1 && second.err.contains("service pid \(pid)") && second.err.contains("tunnelvision down"), "\(second.err)")
        #expect(try Self.status(data, "service.pid") == "\(pid)")

        let slow = try lab.target.run(["curl", "-sS", "--limit-rate", "8M", "-o", "/dev/null", "-w", "%{size_download}", site.big])
        #expect(slow.standardOutput == "\(8 << 20)")

        let down = try Self.tunnelvision(["down", "--data-dir", data.url.path])
        #expect(down.status == 0 && down.out.contains("stopped monitoring network namespace \(lab.target.name)"), "\(down.err)")
        #expect(try !ServiceLock.isHeld(in: data.url), "down returned while the service still held its lock")
        let after = try Self.tunnelvision(["status", "--json", "--data-dir", data.url.path])
        #expect(after.status == 3)
        #expect(try PythonJSON.value(after.out, "state") == "\"off\"" && PythonJSON.value(after.out, "service") == "null")
        #expect(access(DataDirectoryLayout.serviceRecord(in: data.url).path, F_OK) != 0, "a clean stop leaves no record")
        let differences = try lab.differences(from: before)
        #expect(differences.isEmpty, "\(differences)")
        // What the service said once live went to its log, and its last word is its stop.
        let log = try String(contentsOf: DataDirectoryLayout.serviceLog(in: data.url), encoding: .utf8)
        #expect(log.contains("stopped monitoring network namespace \(lab.target.name)"), "\(log)")

        let flows = try Self.tunnelvision(["flows", "--data-dir", data.url.path, "--json", "--program", "curl"])
        #expect(flows.out.contains("\"198.18.99.9\""), "\(flows.out) \(flows.err)")
        let downAgain = try Self.tunnelvision(["down", "--data-dir", data.url.path])
        #expect(downAgain.status == 3 && downAgain.err.contains("no service runs on"), "\(downAgain.err)")
    }

    @Test("kill -9 of the background service: status says it ended without stopping, the namespace works at once, and the next up and down leave it as before")
    func killedServiceIsSaidAndSwept() throws {
        let site = try Site()
        let lab = site.lab
        let before = try lab.snapshot()
        let data = TemporaryDirectory("tv-upsvc-kill")
        let up = try Self.tunnelvision(["up", "--netns", lab.target.name, "--data-dir", data.url.path])
        #expect(up.status == 0, "\(up.err)")
        let pid = try #require(Int32(try Self.status(data, "service.pid")))
        kill(pid, SIGKILL)
        #expect(Self.lockReleased(data), "a killed service's lock outlived it")
        let status = try Self.tunnelvision(["status", "--data-dir", data.url.path])
        #expect(status.status == 3)
        #expect(status.out.contains("the service (pid \(pid)) ended without stopping while live"), "\(status.out)")
        let fetched = try lab.target.run(["curl", "-sS", "--max-time", "10", site.url])
        #expect(fetched.standardOutput == "hello from beyond the uplink\n")

        let again = try Self.tunnelvision(["up", "--netns", lab.target.name, "--data-dir", data.url.path])
        #expect(again.status == 0, "\(again.err)")
        let down = try Self.tunnelvision(["down", "--data-dir", data.url.path])
        #expect(down.status == 0, "\(down.err)")
        let differences = try lab.differences(from: before)
        #expect(differences.isEmpty, "\(differences)")
    }

    /// A writer holding the history at `database` locked (BEGIN EXCLUSIVE) until its input is
    /// closed: a service opening it waits (the store's busy timeout) before it is live.
    static func historyLocked(at database: URL) throws -> (Process, Pipe) {
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments = ["-c", """
            import sqlite3, sys
            connection = sqlite3.connect(sys.argv[1], isolation_level=None)
            connection.execute("BEGIN EXCLUSIVE")
            print("locked", flush=True)
            sys.stdin.read()
            """, database.path]
        let (input, said) = (Pipe(), Pipe())
        (holder.standardInput, holder.standardOutput) = (input, said)
        try holder.run()
        let answer = String(decoding: said.fileHandleForReading.readData(ofLength: 7), as: UTF8.self)
        try #require(answer == "locked\n", "the history could not be locked: \(answer)")
        return (holder, input)
    }

    /// What `handle` says until it has said `text` (or ended), read as it comes.
    static func read(_ handle: FileHandle, until text: String, into said: inout Data) {
        while !String(decoding: said, as: UTF8.self).contains(text) {
            let chunk = handle.availableData
            if chunk.isEmpty { return }
            said += chunk
        }
    }

    @Test("Ctrl-C while up starts the service undoes the start once it has gone through: up says the service was stopped and ends as Ctrl-C ends a command (130), no service runs, and the rules and routes are as before")
    func interruptedStartIsUndone() throws {
        let site = try Site()
        let lab = site.lab
        let before = try lab.snapshot()
        let data = TemporaryDirectory("tv-upsvc-interrupt")
        // A start slow enough to interrupt every time: the history is another writer's a while.
        let (holder, release) = try Self.historyLocked(at: DataDirectoryLayout.database(in: data.url))
        defer { holder.terminate(); holder.waitUntilExit() }
        let up = Process()
        up.executableURL = try BuiltProduct.url("tunnelvision")
        up.arguments = ["up", "--netns", lab.target.name, "--data-dir", data.url.path]
        let (output, errors) = (Pipe(), Pipe())
        (up.standardOutput, up.standardError) = (output, errors)
        try up.run()
        defer {
            if let pid = try? Int32(Self.status(data, "service.pid")), (try? ServiceLock.isHeld(in: data.url)) == true { kill(pid, SIGKILL) }
        }
        var said = Data()
        Self.read(errors.fileHandleForReading, until: "starting the service", into: &said)   // its handler is in place
        kill(up.processIdentifier, SIGINT)
        Self.read(errors.fileHandleForReading, until: "will be stopped", into: &said)
        try release.fileHandleForWriting.close()   // the history free: the service goes live, and is stopped
        said += errors.fileHandleForReading.readDataToEndOfFile()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        up.waitUntilExit()
        let text = String(decoding: said, as: UTF8.self)
        #expect(up.terminationReason == .exit && up.terminationStatus == 130, "\(printed) \(text)")
        #expect(text.contains("interrupted; the service was stopped and what it had set up removed"), "\(text)")
        let status = try Self.tunnelvision(["status", "--data-dir", data.url.path])
        #expect(status.status == 3, "\(status.out)")
        let differences = try lab.differences(from: before)
        #expect(differences.isEmpty, "\(differences)")
    }

    /// A process in the container, as a container's own would be (SIGKILLed at the end).
    static func resident(in namespace: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        process.arguments = ["netns", "exec", namespace, "sleep", "600"]   // ip netns exec execs: the pid is sleep's
        try process.run()
        return process
    }

    @Test("up --pid monitors the namespace of a process in the container, and stays with it when the process ends; down leaves it as before; with --no-programs, passed on to the background service, no program is asked")
    func monitorsAProcesssNamespace() throws {
        let site = try Site()
        let lab = site.lab
        let before = try lab.snapshot()
        let resident = try Self.resident(in: lab.target.name)
        defer { kill(resident.processIdentifier, SIGKILL); resident.waitUntilExit() }
        let pid = resident.processIdentifier
        let data = TemporaryDirectory("tv-upsvc-pid")
        let up = try Self.tunnelvision(["up", "--pid", "\(pid)", "--no-programs", "--data-dir", data.url.path])
        #expect(up.status == 0, "\(up.err)")
        #expect(up.out.hasPrefix("monitoring the network namespace of process \(pid) through tv"), "\(up.out)")
        #expect(try Self.status(data, "service.target") == "{\"kind\": \"pid\", \"pid\": \(pid)}")
        #expect(try lab.route("198.18.99.9").hasPrefix("tv"))
        let fetched = try lab.target.run(["curl", "-sS", "--max-time", "10", site.url])
        #expect(fetched.standardOutput == "hello from beyond the uplink\n")

        // The process ends; the service holds its namespace and still takes its rules away.
        kill(pid, SIGKILL)
        resident.waitUntilExit()
        let down = try Self.tunnelvision(["down", "--data-dir", data.url.path])
        #expect(down.status == 0 && down.out.contains("stopped monitoring the network namespace of process \(pid)"), "\(down.err)")
        let differences = try lab.differences(from: before)
        #expect(differences.isEmpty, "\(differences)")
        let flows = try Self.tunnelvision(["flows", "--data-dir", data.url.path, "--json"])
        #expect(flows.out.contains("\"198.18.99.9\""), "\(flows.out) \(flows.err)")
        // The first test here names curl's program; this service was told not to ask.
        #expect(flows.out.contains("\"program\":null") && !flows.out.contains("\"state\":\"program\""), "\(flows.out)")
    }

    @Test("up --pid refuses a process that does not exist, and one in the namespace up itself runs in (that is the host), touching nothing")
    func refusesWhatIsNotAContainer() throws {
        let missing = try Self.tunnelvision(["up", "--pid", "\(Int32.max)", "--foreground", "--data-dir", TemporaryDirectory("tv-upsvc-nopid").url.path])
        #expect(missing.status == 1 && missing.err.contains("there is no process \(Int32.max)"), "\(missing.err)")
        // The guard is tried in a lab namespace that plays the host, never in this machine's own:
        // up runs inside the container and is pointed at a process beside it.
        let lab = try RoutedRoutingTests.Container()
        let before = try lab.snapshot()
        let resident = try Self.resident(in: lab.target.name)
        defer { kill(resident.processIdentifier, SIGKILL); resident.waitUntilExit() }
        let own = try BuiltProduct.run(URL(fileURLWithPath: "/usr/sbin/ip"),
                                       ["netns", "exec", lab.target.name, try BuiltProduct.url("tunnelvision").path, "up", "--pid",
                                        "\(resident.processIdentifier)", "--foreground", "--data-dir", TemporaryDirectory("tv-upsvc-own").url.path])
        #expect(own.status == 1 && own.err.contains("is in the network namespace this service runs in: that is the host"), "\(own.err)")
        let differences = try lab.differences(from: before)
        #expect(differences.isEmpty, "\(differences)")
    }

    @Test("up --host, run in a lab namespace that plays the host, monitors that namespace; down from outside leaves it as before")
    func monitorsTheHostItRunsIn() throws {
        let site = try Site()
        let lab = site.lab
        let before = try lab.snapshot()
        let data = TemporaryDirectory("tv-upsvc-host")
        // Never this machine's own namespace: up runs inside the container, which is its host.
        let up = try BuiltProduct.run(URL(fileURLWithPath: "/usr/sbin/ip"),
                                      ["netns", "exec", lab.target.name, try BuiltProduct.url("tunnelvision").path, "up", "--host",
                                       "--data-dir", data.url.path])
        #expect(up.status == 0, "\(up.err)")
        #expect(up.out.hasPrefix("monitoring the host (the namespace the service runs in) through tv"), "\(up.out)")
        #expect(try Self.status(data, "service.target") == "{\"kind\": \"host\"}")
        #expect(try lab.route("198.18.99.9").hasPrefix("tv"))
        let fetched = try lab.target.run(["curl", "-sS", "--max-time", "10", site.url])
        #expect(fetched.standardOutput == "hello from beyond the uplink\n")
        // A download that lasts about a second, so its socket is there when its program is asked
        // about, however busy the machine (the 30-byte fetch may be over first, and say so).
        let slow = try lab.target.run(["curl", "-sS", "--limit-rate", "8M", "-o", "/dev/null", "-w", "%{size_download}", site.big])
        #expect(slow.standardOutput == "\(8 << 20)")
        let down = try Self.tunnelvision(["down", "--data-dir", data.url.path])
        #expect(down.status == 0, "\(down.err)")
        let differences = try lab.differences(from: before)
        #expect(differences.isEmpty, "\(differences)")
        let flows = try Self.tunnelvision(["flows", "--data-dir", data.url.path, "--json", "--program", "curl"])
        #expect(flows.out.contains("\"198.18.99.9\""), "\(flows.out) \(flows.err)")
    }
}
