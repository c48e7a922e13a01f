import Foundation
import Linux
import Shared
import TestSupport
import Testing

@Suite("The monitored command", .serialized)
struct MonitoredCommandTests {
    static let nobody = CommandAccount(uid: 65534, gid: 65534, groups: [65534], name: "nobody", home: "/nonexistent")

    @Test("through sudo the command drops to the invoking user; as plain root, or sudo from root, it stays root")
    func invokingUser() {
        let ids = CommandAccount.invokingIDs(environment: ["SUDO_UID": "1000", "SUDO_GID": "100"], effectiveUserID: 0)
        #expect(ids?.uid == 1000 && ids?.gid == 100)
        #expect(CommandAccount.invokingIDs(environment: ["SUDO_UID": "1000", "SUDO_GID": "100"], effectiveUserID: 1000) == nil)
        #expect(CommandAccount.invokingIDs(environment: ["SUDO_UID": "0", "SUDO_GID": "0"], effectiveUserID: 0) == nil)
        #expect(CommandAccount.invokingIDs(environment: [:], effectiveUserID: 0) == nil)
    }

    @Test("a SUDO_UID with no account is refused with what to do, not run half-known")
    func unknownAccount() {
        #expect(throws: CommandStartFailure.noAccount(uid: 3_999_999)) {
            try CommandAccount.invoking(environment: ["SUDO_UID": "3999999", "SUDO_GID": "3999999"], effectiveUserID: 0)
        }
        #expect(CommandStartFailure.noAccount(uid: 7).description.contains("unset SUDO_UID"))
    }

    @Test("the account's HOME, USER and LOGNAME replace ours; without an account the environment is ours untouched")
    func environment() {
        let ours = ["HOME": "/root", "USER": "root", "LOGNAME": "root", "PATH": "/usr/bin", "SUDO_USER": "nobody"]
        let dropped = MonitoredCommand(arguments: ["env"], account: Self.nobody).environment(from: ours)
        #expect(dropped == ["HOME": "/nonexistent", "USER": "nobody", "LOGNAME": "nobody", "PATH": "/usr/bin", "SUDO_USER": "nobody"])
        #expect(MonitoredCommand(arguments: ["env"], account: nil).environment(from: ours) == ours)
    }

    @Test("a raw wait status reads as an exit code, a signal (core dumped or not), or nothing for a stop")
    func waitStatus() {
        #expect(MonitoredCommand.Ending(waitStatus: 0x0300) == .exited(3))
        #expect(MonitoredCommand.Ending(waitStatus: 0) == .exited(0))
        #expect(MonitoredCommand.Ending(waitStatus: 15) == .signalled(15))
        #expect(MonitoredCommand.Ending(waitStatus: 0x80 | 11) == .signalled(11))
        #expect(MonitoredCommand.Ending(waitStatus: 0x137f) == nil)
        #expect(MonitoredCommand.Ending.exited(3).exitStatus == 3)
        #expect(MonitoredCommand.Ending.signalled(9).exitStatus == 137)
    }

    @Test("a program is found on the PATH it will be looked up on, or by path; a directory is not a program")
    func finding() {
        #expect(MonitoredCommand.locate("sh", environment: ["PATH": "/nonexistent:/usr/bin:/bin"]) == "/usr/bin/sh")
        #expect(!MonitoredCommand.canFind("no-such-program-here", environment: ["PATH": "/usr/bin:/bin"]))
        #expect(MonitoredCommand.canFind("/bin/sh", environment: [:]))
        #expect(!MonitoredCommand.canFind("/nonexistent/sh", environment: [:]))
        #expect(!MonitoredCommand.canFind("bin", environment: ["PATH": "/usr"]))
    }

    @Test("each file of /etc/netns/NAME/ is bind-mounted over its namesake in /etc/, as ip netns exec does")
    func etcBinds() {
        let binds = CommandNamespace(name: "ns").bindMounts(entries: [".", "..", "hosts", "resolv.conf"])
        #expect(binds.map(\.source) == ["/etc/netns/ns/hosts", "/etc/netns/ns/resolv.conf"])
        #expect(binds.map(\.target) == ["/etc/hosts", "/etc/resolv.conf"])
    }

    @Test("inside the namespace the command runs as the account, sees the announced resolvers and the namespace's /sys; its status comes back")
    func runsInside() async throws {
        let namespace = try NetworkNamespace.create(NamespaceName.make(prefix: "tvtest"))
        defer { namespace.delete() }
        let resolvConf = try NamespaceResolvConf(namespace: namespace.name, servers: [IPAddress(parsing: "198.19.0.2")!])
        defer { resolvConf.remove() }
        let output = TemporaryFile()
        let script = "{ id -u; id -G; grep nameserver /etc/resolv.conf; ls /sys/class/net; echo $HOME $USER; } > \(output.path); exit 7"
        let command = MonitoredCommand(arguments: ["sh", "-c", script], account: Self.nobody)
        let running = try RunningCommand.start(command, namespace: CommandNamespace(name: namespace.name),
                                               environment: ProcessInfo.processInfo.environment)
        #expect(try await running.ending() == .exited(7))
        #expect(try String(contentsOfFile: output.path, encoding: .utf8)
                == "65534\n65534\nnameserver 198.19.0.2\nlo\n/nonexistent nobody\n")
    }

    @Test("a program that cannot be executed is a typed failure with the shell's status, not a guessed 127")
    func execFailure() async throws {
        let file = TemporaryFile(contents: "not a program\n")
        chmod(file.path, 0o644)
        let command = MonitoredCommand(arguments: [file.path], account: nil)
        // Not executable at all: refused before anything starts, as a shell says "not found".
        #expect(throws: CommandStartFailure.start(program: file.path, step: .exec, errno: ENOENT)) {
            try RunningCommand.start(command, namespace: nil, environment: [:])
        }
        chmod(file.path, 0o755)
        let noInterpreter = TemporaryFile(contents: "#!/nonexistent/interpreter\n")
        chmod(noInterpreter.path, 0o755)
        let running = try RunningCommand.start(MonitoredCommand(arguments: [noInterpreter.path], account: Self.nobody),
                                               namespace: nil, environment: [:])
        await #expect(throws: CommandStartFailure.start(program: noInterpreter.path, step: .exec, errno: ENOENT)) {
            try await running.ending()
        }
        let denied = TemporaryFile(contents: "#!/bin/sh\n")
        chmod(denied.path, 0o700)   // root may run it; nobody may not
        let refused = try RunningCommand.start(MonitoredCommand(arguments: [denied.path], account: Self.nobody),
                                               namespace: nil, environment: [:])
        do {
            _ = try await refused.ending()
            Issue.record("nobody executed a file only root may")
        } catch {
            #expect(error == .start(program: denied.path, step: .exec, errno: EACCES))
            #expect(error.exitStatus == 126 && error.description == "\(denied.path): Permission denied")
        }
    }

    @Test("what the command leaves running (a daemon in its own session) ends with it")
    func nothingOutlivesTheCommand() async throws {
        let marker = "31337\(Int.random(in: 100...999))"
        let command = MonitoredCommand(arguments: ["sh", "-c", "setsid sleep \(marker) </dev/null >/dev/null 2>&1 & sleep 0.2; exit 0"],
                                       account: nil)
        let running = try RunningCommand.start(command, namespace: nil, environment: ProcessInfo.processInfo.environment)
        #expect(try await running.ending() == .exited(0))
        #expect(try await Self.gone(marker, within: 1))
    }

    @Test("terminate stops the command with SIGTERM, and kills one that ignores it after the grace")
    func terminate() async throws {
        let patient = "31339\(Int.random(in: 100...999))"
        let polite = try RunningCommand.start(MonitoredCommand(arguments: ["sleep", patient], account: nil), namespace: nil,
                                              environment: ProcessInfo.processInfo.environment)
        #expect(try await Self.started(patient), "the command never ran")
        polite.terminate(grace: .seconds(5))
        #expect(try await polite.ending() == .signalled(SIGTERM))

        let marker = "31338\(Int.random(in: 100...999))"
        let stubborn = try RunningCommand.start(MonitoredCommand(arguments: ["sh", "-c", "trap '' TERM; sleep \(marker)"],
                                                                 account: nil),
                                                namespace: nil, environment: ProcessInfo.processInfo.environment)
        #expect(try await Self.started(marker), "the command never reached its sleep, past the trap")
        let asked = ContinuousClock.now
        stubborn.terminate(grace: .milliseconds(500))
        #expect(try await stubborn.ending() == .signalled(SIGKILL))
        #expect(ContinuousClock.now - asked < .seconds(3))
        #expect(try await Self.gone(marker, within: 1))
    }

    @Test("stub resolvers on loopback give way to their upstreams")
    func hostResolvers() throws {
        let stub = TemporaryFile(contents: "nameserver 127.0.0.53\noptions edns0\n")
        let upstream = TemporaryFile(contents: "nameserver 198.19.0.53\n")
        let listed = try #require(NamespaceResolvConf.hostResolvers(resolvConf: stub.path, upstreams: upstream.path))
        #expect(TunnelResolvers.announceable(from: listed) == [IPAddress(parsing: "198.19.0.53")!])
        #expect(NamespaceResolvConf.hostResolvers(resolvConf: "/nonexistent", upstreams: upstream.path) == nil)
    }

    /// Whether `sleep marker` runs within ten seconds.
    static func started(_ marker: String) async throws -> Bool {
        try await eventually(within: .seconds(10)) { try !ProcessTable.noneMatch("^sleep \(marker)$") }
    }

    /// Whether no process's command line contains `marker` within `seconds`.
    static func gone(_ marker: String, within seconds: Double) async throws -> Bool {
        try await eventually(within: .milliseconds(Int(seconds * 1000))) { try ProcessTable.noneMatch(marker) }
    }
}

/// A file in /tmp that any user may write (the command runs as nobody), removed afterwards.
final class TemporaryFile {
    let path = "/tmp/tunnelvision-test-\(UUID().uuidString)"

    init(contents: String = "") {
        _ = FileManager.default.createFile(atPath: path, contents: Data(contents.utf8))
        chmod(path, 0o666)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
