#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// The tunnel's shell failing for real, in a lab: a TUN interface deleted under a running tunnel,
/// and relay sockets refused by the lab's kernels, read back as `tunnelvision stats` prints them.
/// Needs root.
@Suite("The tunnel's shell failures, in a lab", .serialized)
struct TunnelShellFailureLabTests {
    typealias Failures = TunnelRuntimeFailureTests.Failures

    /// A session over a fresh TUN in the lab's monitored namespace, relaying from its host.
    static func session(in lab: Lab, data: TemporaryDirectory, failures: Failures) async throws -> (TunnelSession, TUNDevice) {
        let device = try TUNDevice()
        try TunnelNamespacePlan.apply(device: device.name, namespace: lab.monitored.name)
        var options = TunnelSession.Options()
        options.captureEnabled = false
        let session = try await TunnelSession(dataDirectory: data.url, device: device, options: options,
                                              relayNamespace: lab.host.name, onFailure: { failures.record($0) })
        return (session, device)
    }

    /// The CPU time a thread of this process has used, in clock ticks (utime + stime of
    /// /proc/self/task/TID/stat); nil once the thread has ended.
    static func cpuTicks(thread tid: String) -> Int? {
        guard let stat = try? String(contentsOfFile: "/proc/self/task/\(tid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after the command's closing parenthesis: state is the 3rd field, utime the 14th.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    @Test("deleting the TUN interface under a running tunnel ends it within a second with EBADFD, without spinning; stop still returns")
    func aDeletedInterfaceEndsTheTunnel() async throws {
        let lab = try Lab()
        defer { lab.remove() }
        let data = TemporaryDirectory("shell-failure")
        let failures = Failures()
        let (session, device) = try await Self.session(in: lab, data: data, failures: failures)
        defer { device.close() }
        // The loop thread's own id, asked on it.
        let tid = String(await session.runtime.onLoop { _ in KernelThread.currentID })
        let before = try #require(Self.cpuTicks(thread: tid))

        try lab.monitored.ip(["link", "del", device.name])
        let told = failures.first(within: 1)
        let spent = Self.cpuTicks(thread: tid).map { $0 - before }
        // The loop thread ends once it has said why: its task leaves /proc.
        let ended = await eventually(within: .seconds(5)) { Self.cpuTicks(thread: tid) == nil }
        #expect(told, "no failure within a second; the loop thread spent \(spent ?? -1) ticks after the deletion")
        #expect(ended, "the loop thread goes on after its device is gone (\(Self.cpuTicks(thread: tid).map { $0 - before } ?? -1) ticks of CPU)")
        #expect(session.failure == .deviceGone(errno: EBADFD))
        #expect(session.failure?.description.contains("TUN device is gone (EBADFD") == true)
        await session.stop()
        await session.stop()
        #expect(failures.all == [.deviceGone(errno: EBADFD)], "told once")
        #expect(!FileManager.default.fileExists(atPath: DataDirectoryLayout.controlSocket(in: data.url).path))
    }

    @Test("connects refused (ECONNREFUSED) and UDP to an unreachable address (ENETUNREACH) are counted and read back through tunnelvision stats --json and its text")
    func refusalsReachTheStatsCommand() async throws {
        let lab = try Lab()
        defer { lab.remove() }
        let data = TemporaryDirectory("shell-stats")
        let failures = Failures()
        let (session, device) = try await Self.session(in: lab, data: data, failures: failures)
        defer { device.close() }

        // Nothing listens on the server's port 9; the host namespace has no route to 198.18.77.7.
        for _ in 0..<2 {
            let curl = try lab.monitored.run(["sh", "-c", "curl -sS --max-time 5 http://\(Lab.serverIPv4):9/ 2>&1; true"])
            // curl's exit 7: it could not connect (the relay answered the refused connect with a reset).
            #expect(curl.standardOutput.contains("curl: (7)"), "curl said: \(curl.standardOutput)")
        }
        _ = try lab.monitored.run([LabScripts.python, "-c", """
            import socket, time
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            for _ in range(3):
                s.sendto(b'lost', ('198.18.77.7', 9)); time.sleep(0.05)
            """])

        // The relay counts the three lost datagrams as it reads them: ask until it has, or 10 s.
        let tunnelvision = try BuiltProduct.url("tunnelvision")
        let expected = "2 3 5 0 0\n"
        var said = ""
        _ = try eventually(within: 10, poll: 100_000) {
            said = try lab.host.run(["sh", "-c", """
            '\(tunnelvision.path)' stats --json --data-dir '\(data.url.path)' | python3 -c '
            import json, sys
            shell = json.load(sys.stdin)["stats"]["shell"]
            errnos = shell["sockets"]["connectFailuresByErrno"]
            print(errnos.get("ECONNREFUSED", 0), errnos.get("ENETUNREACH", 0), shell["sockets"]["connectFailures"],
                  shell["sockets"]["socketFailures"], len(shell["device"]["readFailures"]))'
            """]).standardOutput
            return said == expected
        }
        #expect(said == expected, "stats --json said: \(said)")
        let text = try lab.host.run([tunnelvision.path, "stats", "--data-dir", data.url.path]).standardOutput
        #expect(text.contains("shell.sockets — what the relay's sockets refused"))
        #expect(text.contains("connectFailuresByErrno.ECONNREFUSED  2"), "stats said: \(text)")
        #expect(text.contains("connectFailuresByErrno.ENETUNREACH   3"), "stats said: \(text)")
        #expect(text.contains("shell.device — what the TUN device refused (0 reads failed, 0 datagrams lost)"))
        #expect(failures.all.isEmpty)
        await session.stop()
    }
}
