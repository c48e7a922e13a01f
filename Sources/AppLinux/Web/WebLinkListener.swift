#if canImport(Glibc)
import Glibc
#endif
import App
import CTunnelVision
import Dispatch
import Foundation
import Posix
import Shared

/// The running server's end of `tunnelvision ui link`: a Unix stream socket in the data
/// directory's `ui/` (`WebLinkChannel`), where whoever connects — and the kernel says is allowed
/// (`WebLinkPermission`, from SO_PEERCRED) — gets one line: a new address (`WebLinkReply`). The
/// asking command sends nothing, so nothing it could put in an argument or the environment
/// carries a secret; the address goes only down this socket, which only the owner can reach.
///
/// `@unchecked Sendable`: both properties are `let`s; `source` is not marked `Sendable`, but a
/// dispatch source may be cancelled from any thread, and its handler runs on its own serial queue.
final class WebLinkListener: @unchecked Sendable {
    private let path: String
    private let source: DispatchSourceRead

    private init(path: String, source: DispatchSourceRead) {
        self.path = path
        self.source = source
    }

    /// Listens for `server` on `dataDirectory`'s channel; throws (with what to say) when it
    /// cannot, and the server goes on without it.
    static func start(dataDirectory: URL, server: WebServer) throws(WebLinkChannel.Failure)
        -> WebLinkListener {
        let directory = try WebLinkChannel.prepareDirectory(in: dataDirectory)
        let path = directory + "/" + WebLinkChannel.socketName(process: getpid(), port: server.address.port)
        guard let address = UnixSocketAddress(path: path) else { throw .init("\(path) is too long for a socket's name") }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .init("socket: \(SystemError.text(errno))") }
        unlink(path)   // only this process, on this port, could have made that name: a leftover
        // 0600 by chmod, not umask (the whole process's); the directory is 0700 meanwhile.
        let bound = address.withSockaddr { bind(descriptor, $0, $1) }
        guard bound == 0, chmod(path, 0o600) == 0, WebLinkChannel.handOver(path, in: dataDirectory),
              listen(descriptor, 8) == 0 else {
            let failure = errno
            Glibc.close(descriptor)
            unlink(path)
            throw .init("\(path): \(SystemError.text(failure))")
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: DispatchQueue(label: "tunnelvision ui link"))
        let answer = Answerer(dataDirectory: dataDirectory, server: server)
        source.setEventHandler { answer.acceptWaiting(on: descriptor) }
        source.setCancelHandler { Glibc.close(descriptor) }
        source.resume()
        return WebLinkListener(path: path, source: source)
    }

    /// Stops answering and removes the socket (and `ui/`, when no other server's is left there).
    func stop() {
        source.cancel()
        unlink(path)
        rmdir(String(path[..<path.lastIndex(of: "/")!]))
    }

    /// `struct ucred` (pid, uid, gid: three 32-bit fields on every Linux ABI), which the Glibc
    /// module leaves out (it is declared only under _GNU_SOURCE).
    private struct PeerCredentials {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    /// What each connection is answered: a new address for an allowed peer, a refusal otherwise.
    private struct Answerer: Sendable {
        let dataDirectory: URL
        let server: WebServer

        func acceptWaiting(on listener: Int32) {
            while true {
                let client = ctv_accept_nonblocking(listener)
                if client < 0 {
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    return   // EAGAIN: no more waiting; anything else: the next readiness retries
                }
                answer(client)
                Glibc.close(client)
            }
        }

        private func answer(_ client: Int32) {
            var credentials = PeerCredentials()
            var length = socklen_t(MemoryLayout<PeerCredentials>.size)
            guard getsockopt(client, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
                  length == MemoryLayout<PeerCredentials>.size else { return }
            let reply: WebLinkReply
            switch WebLinkPermission.decide(peer: credentials.uid, directoryOwner: PathStatus.of(dataDirectory.path)?.owner,
                                            server: geteuid()) {
            case .refused(let sentence):
                reply = .refused(sentence)
                server.log("\(Date().formatted(.iso8601)) tunnelvision ui: 'tunnelvision ui link' refused to user \(credentials.uid) "
                           + "(process \(credentials.pid)): \(sentence)")
            case .allowed:
                if let key = server.mintAddress() {
                    reply = .address(WebUIAnnouncement(url: key.url, listen: server.address.description,
                                                       dataDirectory: dataDirectory.path, keyLifetime: server.limits.keyLifetime,
                                                       lifetime: nil))
                    server.log("\(Date().formatted(.iso8601)) tunnelvision ui: a new address was made for user \(credentials.uid) "
                               + "(process \(credentials.pid), 'tunnelvision ui link')")
                } else {
                    reply = .refused("the web app is stopping")
                }
            }
            let line = Array((reply.line + "\n").utf8)
            // A fresh socket's buffer takes one short line; a peer that does not read loses it.
            _ = line.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        }
    }
}
