#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import Linux
@testable import Posix
import Shared
import TestSupport
import Testing

/// The sweep against the real machine: namespaces made with `ip netns add`, /etc/netns folders,
/// and Unix sockets in a temporary data directory. Needs root.
@Suite("the leftover sweep", .serialized)
struct LeftoverSweeperTests {
    static let prefix = "tvsweep"

    @Test("a dead creator's namespace, its /etc/netns folder and an unanswered socket go; a live one's stay")
    func sweepsWhatADeadRunLeft() throws {
        let dead = try SweepFixtures.deadPID()
        let gone = "\(Self.prefix)-\(dead)-1"
        let kept = "\(Self.prefix)-\(getpid())-9999"
        let goneNamespace = try NetworkNamespace.create(gone)
        let keptNamespace = try NetworkNamespace.create(kept)
        defer { goneNamespace.delete(); keptNamespace.delete() }
        try SweepFixtures.resolvConfFolder(gone)
        try SweepFixtures.resolvConfFolder(kept)
        defer { try? FileManager.default.removeItem(atPath: "/etc/netns/\(kept)"); try? FileManager.default.removeItem(atPath: "/etc/netns/\(gone)") }
        let data = TemporaryDirectory("tv-sweep")
        let socket = DataDirectoryLayout.controlSocket(in: data.url).path
        try SweepFixtures.staleSocket(at: socket)

        let notice = try LeftoverSweeper.sweep(prefix: Self.prefix, dataDirectory: data.url)
        #expect(notice == "recovered from an unclean stop: removed namespace \(gone), /etc/netns/\(gone), a stale control socket")
        #expect(try !NetworkNamespace.names().contains(gone))
        #expect(!FileManager.default.fileExists(atPath: "/etc/netns/\(gone)"))
        #expect(PathStatus.of(socket) == nil)
        #expect(try NetworkNamespace.names().contains(kept))
        #expect(FileManager.default.fileExists(atPath: "/etc/netns/\(kept)/resolv.conf"))
        #expect(try LeftoverSweeper.sweep(prefix: Self.prefix, dataDirectory: data.url) == nil)
    }

    @Test("a control socket a tunnel answers on is kept, and a link at its path is refused, its target never made")
    func aLiveSocketIsKeptAndALinkRefused() throws {
        let data = TemporaryDirectory("tv-sweep-live")
        let socket = DataDirectoryLayout.controlSocket(in: data.url).path
        let listener = try SweepFixtures.listeningSocket(at: socket)
        defer { close(listener) }
        #expect(try LeftoverSweeper.sweep(prefix: Self.prefix, dataDirectory: data.url) == nil)
        #expect(PathStatus.of(socket)?.kind == .socket)

        let linked = TemporaryDirectory("tv-sweep-link")
        let elsewhere = TemporaryDirectory("tv-sweep-target")
        let target = elsewhere.url.appendingPathComponent("stolen.sock").path
        let link = DataDirectoryLayout.controlSocket(in: linked.url).path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let error = try #require(throws: DirectoryError.self) { try LeftoverSweeper.sweep(prefix: Self.prefix, dataDirectory: linked.url) }
        #expect(error.description == "\(link): it is a symbolic link; refusing to follow it (remove it)")
        #expect(PathStatus.of(target) == nil)
    }
}

/// What a killed run leaves, made for real.
enum SweepFixtures {
    /// The pid of a process that has just ended (so no namespace's creator is alive with it).
    static func deadPID() throws -> pid_t {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        let pid = process.processIdentifier
        try #require(kill(pid, 0) != 0 && errno == ESRCH)
        return pid
    }

    /// /etc/netns/NAME/resolv.conf, as a run writes it.
    static func resolvConfFolder(_ name: String) throws {
        try FileManager.default.createDirectory(atPath: "/etc/netns/\(name)", withIntermediateDirectories: true)
        try Data("nameserver 198.18.0.1\n".utf8).write(to: URL(fileURLWithPath: "/etc/netns/\(name)/resolv.conf"))
    }

    /// A socket bound at `path`, listening; the caller closes it.
    static func listeningSocket(at path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        let address = try #require(UnixSocketAddress(path: path))
        try #require(address.withSockaddr { bind(descriptor, $0, $1) } == 0 && listen(descriptor, 4) == 0)
        return descriptor
    }

    /// A socket file nobody listens on: bound, then closed without unlinking, as a killed tunnel leaves it.
    static func staleSocket(at path: String) throws {
        close(try listeningSocket(at: path))
        try #require(PathStatus.of(path)?.kind == .socket)
    }
}
