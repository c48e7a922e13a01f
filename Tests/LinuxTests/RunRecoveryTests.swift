#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// `tunnelvision run` after a killed run, as a person meets it: the leftovers made exactly as a
/// kill leaves them (a tvrun namespace by `ip netns add`, its /etc/netns folder, a control socket
/// nobody listens on, a session in the history that never ended), then a real run in the lab's
/// host namespace. Needs root.
@Suite("run recovers from an unclean stop", .serialized)
struct RunRecoveryTests {
    @Test("the next run sweeps a killed run's leftovers, says so in one line, and leaves nothing of its own")
    func theNextRunSweepsAndSaysSo() async throws {
        let lab = try Lab()
        defer { lab.remove() }
        let work = TemporaryDirectory("run-recovery")
        let data = work.url.appendingPathComponent("data")
        try DataDirectory.prepare(data)

        // Leftovers of earlier killed runs on this machine are swept first, so the notice is this test's.
        NamespaceName.removeLeftovers(prefix: "tvrun")
        let dead = try SweepFixtures.deadPID()
        let left = "tvrun-\(dead)-1"
        let leftNamespace = try NetworkNamespace.create(left)
        // A namespace named for a live creator (this test) is another run's: kept.
        let live = try NetworkNamespace.create("tvrun-\(getpid())-9999")
        defer { leftNamespace.delete(); live.delete(); try? FileManager.default.removeItem(atPath: "/etc/netns/\(left)") }
        try SweepFixtures.resolvConfFolder(left)
        try SweepFixtures.staleSocket(at: DataDirectoryLayout.controlSocket(in: data).path)
        let killed = try FlowStore(dataDirectory: data, origin: "run killed mid-way")
        let key = FlowKey(proto: .tcp, source: IPEndpoint(address: IPAddress(parsing: "10.7.0.2")!, port: 40_000),
                          destination: IPEndpoint(address: IPAddress(parsing: "198.19.0.2")!, port: 80))
        _ = try await killed.upsertFlow(FlowRecord(key: key, firstSeen: 1, tlsStatus: .encrypted))
        await killed.close()
        // A kill leaves the session without an end (close dated it): sqlite3 takes the date back.
        let unended = try ExternalCommand.run(["sqlite3", DataDirectoryLayout.database(in: data).path,
                                               "UPDATE sessions SET ended = NULL; SELECT count(*) FROM sessions WHERE ended IS NULL"])
        try #require(unended.standardOutput == "1\n")

        let first = try run(["true"], data: data, in: lab)
        #expect(first.status == 0, "\(first.err)")
        let notices = first.err.split(separator: "\n").filter { $0.contains("unclean stop") }
        // Exactly one line. Another run started meanwhile by a test running alongside may sweep the
        // namespace and folder first (its own sweep is right to); the socket is this directory's alone.
        // The exact full text is checked with a private prefix in LeftoverSweeperTests.
        #expect(notices.count == 1, "\(first.err)")
        let expected = "tunnelvision: recovered from an unclean stop: removed namespace \(left), /etc/netns/\(left), a stale control socket"
        #expect(notices.first.map { $0 == expected || ($0.hasPrefix("tunnelvision: recovered from an unclean stop: removed ")
                                                        && $0.hasSuffix("a stale control socket")) } == true, "\(first.err)")
        #expect(try !NetworkNamespace.names().contains(left))
        #expect(!FileManager.default.fileExists(atPath: "/etc/netns/\(left)"))
        #expect(try NetworkNamespace.names().contains(live.name))

        // A run that ends normally leaves nothing for the next one to sweep: its namespace and its
        // /etc/netns folder are gone, so the next run has nothing to recover from.
        let second = try run(["true"], data: data, in: lab)
        #expect(second.status == 0, "\(second.err)")
        #expect(!second.err.contains("unclean stop"), "\(second.err)")
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: "/etc/netns")) ?? []
        #expect(!folders.contains { name in
            guard let creator = Int32(name.split(separator: "-").dropFirst().first ?? "") else { return false }
            return name.hasPrefix("tvrun-") && kill(creator, 0) != 0 && errno == ESRCH
        }, "\(folders)")

        // Everything the runs made in the data directory is owner-only.
        for path in [data.path] + (FileManager.default.subpaths(atPath: data.path) ?? []).map({ data.path + "/" + $0 }) {
            let status = try #require(PathStatus.of(path))
            #expect(status.mode == (status.kind == .directory ? 0o700 : 0o600), "\(path): \(String(status.mode, radix: 8))")
        }
        let sessions = try await FlowStore(dataDirectory: data).sessions()
        // The killed run's session stays as it was (its end is unknown); the runs after it end theirs.
        #expect(sessions.first?.origin == "run killed mid-way" && sessions.first?.ended == nil, "\(sessions)")
        #expect(sessions.dropFirst().allSatisfy { $0.ended != nil }, "\(sessions)")
    }

    @Test("run refuses a data directory others may write, saying the chmod to type, and makes nothing in it")
    func runRefusesAWritableDataDirectory() throws {
        let lab = try Lab()
        defer { lab.remove() }
        let work = TemporaryDirectory("run-writable")
        let data = work.url.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        chmod(data.path, 0o777)
        let result = try run(["true"], data: data, in: lab)
        #expect(result.status == 1)
        #expect(result.err == "tunnelvision: data directory \(data.path) is writable by its group and everyone (mode 0777): chmod 700 \(data.path)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: data.path).isEmpty)
    }

    private func run(_ command: [String], data: URL, in lab: Lab) throws -> (status: Int32, out: String, err: String) {
        let tunnelvision = try BuiltProduct.url("tunnelvision")
        let ip = try #require(URL(string: "file://" + (ExternalCommand.locate("ip") ?? "/usr/sbin/ip")))
        return try BuiltProduct.run(ip, lab.host.command([tunnelvision.path, "run", "--data-dir", data.path, "--"] + command)
            .dropFirst().map { $0 })
    }
}
