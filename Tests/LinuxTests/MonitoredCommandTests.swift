import Foundation
import Linux
import Shared
import Testing

@Suite("The monitored command", .serialized)
struct MonitoredCommandTests {
    @Test("through sudo the command drops to the invoking user; as plain root it stays root")
    func user() {
        #expect(MonitoredCommand.User.invoking(environment: ["SUDO_UID": "1000", "SUDO_GID": "100"], effectiveUserID: 0)
                == MonitoredCommand.User(uid: 1000, gid: 100))
        #expect(MonitoredCommand.User.invoking(environment: ["SUDO_UID": "1000", "SUDO_GID": "100"], effectiveUserID: 1000) == nil)
        #expect(MonitoredCommand.User.invoking(environment: ["SUDO_UID": "0", "SUDO_GID": "0"], effectiveUserID: 0) == nil)
        #expect(MonitoredCommand.User.invoking(environment: [:], effectiveUserID: 0) == nil)
        let command = MonitoredCommand(arguments: ["curl", "-s"], user: .init(uid: 1000, gid: 100))
        #expect(command.argv(namespace: "ns") == ["ip", "netns", "exec", "ns", "setpriv", "--reuid=1000", "--regid=100",
                                                 "--clear-groups", "--", "curl", "-s"])
    }

    @Test("the tunnel's raised descriptor limit is put back for the command")
    func openFileLimit() throws {
        let limit = OpenFileLimit(soft: 1024, hard: 524_288)
        let command = MonitoredCommand(arguments: ["curl"], user: nil, openFileLimit: limit)
        #expect(command.argv(namespace: "ns") == ["ip", "netns", "exec", "ns", "prlimit", "--nofile=1024:524288", "--", "curl"])
        // Raising is idempotent: after it, soft equals hard and nothing more changes.
        OpenFileLimit.raiseToHardLimit()
        let raised = try #require(OpenFileLimit.current)
        #expect(raised.soft == raised.hard)
        #expect(OpenFileLimit.raiseToHardLimit() == nil)
    }

    @Test("a signal reads as 128 plus its number, as a shell reports it")
    func ending() {
        #expect(MonitoredCommand.Ending.exited(3).exitStatus == 3)
        #expect(MonitoredCommand.Ending.signalled(9).exitStatus == 137)
    }

    @Test("a program is found on the PATH it will be looked up on, or by path")
    func finding() {
        #expect(MonitoredCommand.canFind("sh", environment: ["PATH": "/usr/bin:/bin"]))
        #expect(!MonitoredCommand.canFind("no-such-program-here", environment: ["PATH": "/usr/bin:/bin"]))
        #expect(MonitoredCommand.canFind("/bin/sh", environment: [:]))
        #expect(!MonitoredCommand.canFind("/nonexistent/sh", environment: [:]))
    }

    @Test("inside the namespace the command runs as the user, sees the announced resolvers, and its status comes back")
    func runsInside() throws {
        let namespace = try NetworkNamespace.create(NamespaceName.make(prefix: "tvtest"))
        defer { namespace.delete() }
        let resolvConf = try NamespaceResolvConf(namespace: namespace.name, servers: [IPAddress(parsing: "198.19.0.2")!])
        defer { resolvConf.remove() }
        let output = TemporaryFile()
        let command = MonitoredCommand(arguments: ["sh", "-c", "id -u > \(output.path); grep nameserver /etc/resolv.conf >> \(output.path); exit 7"],
                                       user: .init(uid: 65534, gid: 65534))
        let process = try command.start(namespace: namespace.name)
        #expect(MonitoredCommand.wait(process) == .exited(7))
        #expect(try String(contentsOfFile: output.path, encoding: .utf8) == "65534\nnameserver 198.19.0.2\n")
        resolvConf.remove()
        #expect(!FileManager.default.fileExists(atPath: resolvConf.directory))
    }

    @Test("stub resolvers on loopback give way to their upstreams")
    func hostResolvers() throws {
        let stub = TemporaryFile(contents: "nameserver 127.0.0.53\noptions edns0\n")
        let upstream = TemporaryFile(contents: "nameserver 198.19.0.53\n")
        let listed = try #require(NamespaceResolvConf.hostResolvers(resolvConf: stub.path, upstreams: upstream.path))
        #expect(TunnelResolvers.announceable(from: listed) == [IPAddress(parsing: "198.19.0.53")!])
        #expect(NamespaceResolvConf.hostResolvers(resolvConf: "/nonexistent", upstreams: upstream.path) == nil)
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
