#if canImport(Glibc)
import Glibc
#endif
import App
import Foundation
import Posix
import Shared

/// Where `tunnelvision ui link` meets the servers of one data directory: `DATA/ui/`, a directory
/// closed to everyone but the data directory's owner (0700), holding one socket per running
/// server (0600, named by process and port, so two servers on one directory each have theirs).
/// Nothing here is followed through a symbolic link, and a directory that is not as it should be
/// is refused, never used.
package enum WebLinkChannel {
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        package let description: String
        init(_ description: String) { self.description = description }
    }

    static func directory(in dataDirectory: URL) -> String {
        DataDirectoryLayout.webLinks(in: dataDirectory).path
    }

    static func socketName(process: pid_t, port: UInt16) -> String { "\(process)-\(port).sock" }

    /// `ui/`, made 0700 (and given to the data directory's owner when root serves another
    /// user's directory, so the owner can ask too), or checked when it exists: a directory, not
    /// a link, its owner's alone.
    static func prepareDirectory(in dataDirectory: URL) throws(Failure) -> String {
        let path = directory(in: dataDirectory)
        if mkdir(path, 0o700) == 0 {
            guard chmod(path, 0o700) == 0, handOver(path, in: dataDirectory) else {
                throw Failure("\(path): \(SystemError.text(errno))")
            }
            return path
        }
        guard errno == EEXIST else {
            // The data directory is not made here: a reader that creates what a typo names would mislead.
            if errno == ENOENT { throw Failure("\(dataDirectory.path) does not exist (yet)") }
            throw Failure("\(path): \(SystemError.text(errno))")
        }
        try check(path, in: dataDirectory)
        return path
    }

    /// Fit to use: a directory (lstat: a link is not), of the data directory's owner or ours,
    /// closed to others.
    static func check(_ path: String, in dataDirectory: URL) throws(Failure) {
        guard let status = PathStatus.of(path) else { throw Failure("\(path): \(SystemError.text(errno))") }
        guard status.kind == .directory else { throw Failure("\(path) is not a directory (a link or a file is never used)") }
        let owners = [geteuid(), PathStatus.of(dataDirectory.path)?.owner]
        guard owners.contains(status.owner) else { throw Failure("\(path) belongs to user \(status.owner), not to the data directory's owner") }
        guard status.mode & 0o077 == 0 else {
            throw Failure("\(path) is open to others (mode \(String(status.mode, radix: 8))); chmod 700 it")
        }
    }

    /// Gives `path` to the data directory's owner when root made it in another user's directory;
    /// true when nothing needed doing or it was done.
    static func handOver(_ path: String, in dataDirectory: URL) -> Bool {
        guard geteuid() == 0, let owner = PathStatus.of(dataDirectory.path)?.owner, owner != 0 else { return true }
        return lchown(path, owner, gid_t(bitPattern: -1)) == 0
    }

    /// What every server on `dataDirectory` answered (a new address each, or why not); empty
    /// when none runs there. Sockets left by a server that died are removed on the way.
    package static func ask(dataDirectory: URL, timeout: Duration = .seconds(5)) throws(Failure) -> [WebLinkReply] {
        let path = directory(in: dataDirectory)
        guard PathStatus.of(path) != nil else {
            if errno == ENOENT { return [] }
            throw Failure("\(path): \(SystemError.text(errno))")
        }
        try check(path, in: dataDirectory)
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".sock") }.sorted()
        } catch {
            throw Failure("cannot list \(path): \(SystemError.text(errno == 0 ? EACCES : errno))")
        }
        var replies: [WebLinkReply] = []
        for name in names {
            let socketPath = path + "/" + name
            guard PathStatus.of(socketPath)?.kind == .socket else { continue }
            switch try request(socketPath, timeout: timeout) {
            case .answered(let reply): replies.append(reply)
            case .gone: unlink(socketPath)
            }
        }
        return replies
    }

    private enum Asked { case answered(WebLinkReply), gone }

    private static func request(_ path: String, timeout: Duration) throws(Failure) -> Asked {
        guard let address = UnixSocketAddress(path: path) else { throw Failure("\(path) is too long for a socket's name") }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure("socket: \(SystemError.text(errno))") }
        defer { close(descriptor) }
        var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        guard address.withSockaddr({ connect(descriptor, $0, $1) }) == 0 else {
            if errno == ECONNREFUSED || errno == ENOENT { return .gone }
            throw Failure("cannot reach the web app at \(path): \(SystemError.text(errno))")
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !received.contains(UInt8(ascii: "\n")), received.count < 64 * 1024 {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw Failure("no answer from the web app at \(path): \(SystemError.text(errno))") }
            if count == 0 { break }
            received += chunk[..<count]
        }
        let line = String(decoding: received.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        guard let reply = WebLinkReply(line: line) else { throw Failure("the answer at \(path) is not a web app's: \(line.prefix(80))") }
        return .answered(reply)
    }
}
