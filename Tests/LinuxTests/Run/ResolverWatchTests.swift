#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import Linux
import Shared
import Testing
import TestSupport

/// A network change while a run goes on: the machine's resolver configuration written in place,
/// replaced by rename, or emptied of usable servers — each noticed, counted, and learnt when it
/// gives other servers, which the command's resolv.conf then lists. The machine's own
/// /etc/resolv.conf is never touched: the watch is given a file of the test's, and the run reads
/// one bind-mounted over /etc/resolv.conf in a mount namespace of the test's own. Needs root.
@Suite("ResolverWatch: the machine's resolvers changing while a run goes on", .serialized)
struct ResolverWatchTests {
    @Test("written in place, replaced by rename, left with only a loopback stub: three changes, two learnt, the namespace's file follows")
    func changesAreCountedAndLearnt() throws {
        let directory = TemporaryDirectory("tv-resolvers")
        let file = directory.url.appendingPathComponent("resolv.conf")
        try "nameserver 198.18.5.1\n".write(to: file, atomically: false, encoding: .utf8)
        let namespace = NamespaceName.make(prefix: "tvrw")
        let announced = try NamespaceResolvConf(namespace: namespace, servers: [IPAddress(parsing: "198.18.5.1")!])
        defer { announced.remove() }
        let notices = NoticeLog()
        let watch = try #require(ResolverWatch(status: ResolverStatus(announced: ["198.18.5.1"], reportedAtStart: ["198.18.5.1"]),
                                               namespace: namespace, resolvConf: file.path,
                                               upstreams: directory.url.appendingPathComponent("none").path) { notices.add($0) })
        defer { watch.stop() }
        let namespaceFile = "\(announced.directory)/resolv.conf"
        func namespaceServers() -> String { (try? String(contentsOfFile: namespaceFile, encoding: .utf8)) ?? "" }

        // In place: the same inode, rewritten.
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data("nameserver 198.18.6.1\n".utf8))
        try handle.close()
        #expect(eventually { watch.status.networkChangesLearned == 1 }, "\(watch.status)")
        #expect(watch.status.announced == ["198.18.6.1"] && namespaceServers().contains("nameserver 198.18.6.1\n"))

        // Replaced: a new file renamed over it, as resolvconf and NetworkManager do.
        let next = directory.url.appendingPathComponent("resolv.conf.new")
        try "nameserver 198.18.7.1\nnameserver fd00:7::53\n".write(to: next, atomically: false, encoding: .utf8)
        #expect(rename(next.path, file.path) == 0)
        #expect(eventually { watch.status.networkChangesLearned == 2 }, "\(watch.status)")
        #expect(namespaceServers().contains("nameserver 198.18.7.1\nnameserver fd00:7::53\n"), "\(namespaceServers())")

        // Between networks: nothing usable listed. Counted, and the servers stay.
        try "nameserver 127.0.0.53\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(eventually { watch.status.networkChanges >= 3 }, "\(watch.status)")
        #expect(watch.status.networkChangesLearned == 2 && watch.status.announced == ["198.18.7.1", "fd00:7::53"])
        #expect(watch.status.reportedNow == ["127.0.0.53"])
        #expect(notices.lines.contains { $0.contains("the command now gets 198.18.7.1, fd00:7::53") }, "\(notices.lines)")
    }

    @Test("tunnelvision run: the command reads the new servers after the machine's change, and stats --json counts it")
    func aRunCatchesUp() throws {
        let directory = TemporaryDirectory("tv-resolvers-run")
        let file = directory.url.appendingPathComponent("resolv.conf")
        try "nameserver 198.18.5.1\n".write(to: file, atomically: false, encoding: .utf8)
        chmod(file.path, 0o644)
        let data = TemporaryDirectory("tv-resolvers-data")
        let tunnelvision = try BuiltProduct.url("tunnelvision").path
        // A mount namespace of the test's own, where /etc/resolv.conf is the test's file.
        let run = Process()
        run.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        run.arguments = ["--mount", "--propagation", "private", "sh", "-c",
                         "mount --bind \"$1\" /etc/resolv.conf && exec \"$2\" run --data-dir \"$3\" -- sh -c 'read go; cat /etc/resolv.conf'",
                         "sh", file.path, tunnelvision, data.url.path]
        let input = Pipe(), output = Pipe()
        run.standardInput = input
        run.standardOutput = output
        run.standardError = FileHandle.nullDevice
        try run.run()
        defer { if run.isRunning { kill(run.processIdentifier, SIGKILL) }; run.waitUntilExit() }
        func stats(_ path: String) -> String? {
            guard let result = try? BuiltProduct.run(URL(fileURLWithPath: tunnelvision), ["stats", "--json", "--data-dir", data.url.path]),
                  result.status == 0 else { return nil }
            return try? PythonJSON.value(result.out, path)
        }
        #expect(eventually { stats("stats.resolvers.announced") == "[\"198.18.5.1\"]" }, "the run never answered")
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data("nameserver 198.18.6.1\n".utf8))
        try handle.close()
        #expect(eventually { stats("stats.resolvers.networkChangesLearned") == "1" }, "\(stats("stats.resolvers") ?? "no stats")")
        #expect(stats("stats.resolvers.announced") == "[\"198.18.6.1\"]")
        try input.fileHandleForWriting.write(contentsOf: Data("go\n".utf8))
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said.contains("nameserver 198.18.6.1") && !said.contains("198.18.5.1"), "\(said)")
        run.waitUntilExit()
        #expect(run.terminationStatus == 0)
    }
}

/// What the watch said, kept for the test to read.
final class NoticeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [String] = []
    func add(_ line: String) { lock.lock(); kept.append(line); lock.unlock() }
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return kept }
}
