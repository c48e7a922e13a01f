#if canImport(Glibc)
import Glibc
#endif
import CTunnelVision
import Foundation
import Posix
import Shared

/// The control channel's tunnel end: a Unix stream socket in the data directory (mode 0600),
/// served by the tunnel's event loop. Each connection carries one command — one JSON line
/// (`ControlChannel`'s format) — and gets one response line, then is closed. Never per-packet
/// data: that is the ring's.
package final class ControlServer {
    package typealias Handler = (ControlCommand) -> ControlResponse
    /// A command is a few dozen bytes; anything longer than this without a newline is not one.
    static let maximumMessageBytes = 64 * 1024

    let path: String
    private let loop: EventLoop
    private let handler: Handler
    private var listener: Int32 = -1
    private var clients: [Int32: Data] = [:]

    /// Binds the socket at `path` (replacing a stale one) and starts accepting on `loop`. Call on
    /// the loop thread or before it runs.
    package init(path: String, loop: EventLoop, handler: @escaping Handler) throws(ControlSocketError) {
        self.path = path
        self.loop = loop
        self.handler = handler
        guard let address = UnixSocketAddress(path: path) else { throw .pathTooLong(path) }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .failed("socket", path: path, errno: errno) }
        unlink(path)   // a socket left by a tunnel that died; a live one holds the ring's lock first
        // Only the owner may steer the tunnel: 0600. chmod rather than umask, which is the whole
        // process's; until the chmod, no other user has the write permission connect(2) needs
        // unless the umask itself grants it.
        let bound = address.withSockaddr { bind(descriptor, $0, $1) }
        guard bound == 0, chmod(path, 0o600) == 0, listen(descriptor, 16) == 0 else {
            let failure = errno
            Glibc.close(descriptor)
            throw .failed("bind", path: path, errno: failure)
        }
        listener = descriptor
        do {
            try loop.register(descriptor, interest: .read) { [weak self] _ in self?.accept() }
        } catch {
            Glibc.close(descriptor)
            unlink(path)
            throw .failed("register", path: path, errno: EINVAL)
        }
    }

    private func accept() {
        while true {
            let client = ctv_accept_nonblocking(listener)
            guard client >= 0 else { return }
            clients[client] = Data()
            do {
                try loop.register(client, interest: .read) { [weak self] _ in self?.read(client) }
            } catch {
                finish(client)
            }
        }
    }

    private func read(_ client: Int32) {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { Glibc.read(client, $0.baseAddress, $0.count) }
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
        guard count > 0 else { return finish(client) }
        clients[client, default: Data()].append(contentsOf: chunk[..<count])
        let received = clients[client] ?? Data()
        if let newline = received.firstIndex(of: UInt8(ascii: "\n")) {
            respond(to: client, message: received[..<newline])
        } else if received.count > Self.maximumMessageBytes {
            respond(to: client, message: received)
        }
    }

    private func respond(to client: Int32, message: Data) {
        let response: ControlResponse
        do {
            response = handler(try ControlChannel.decodeCommand(Data(message)))
        } catch {
            response = .failed("\(error)")
        }
        var line = ControlChannel.encode(response)
        line.append(UInt8(ascii: "\n"))
        // A response is small and the socket fresh: one write, retried on a full buffer briefly.
        // MSG_NOSIGNAL: a client that hung up must not take the tunnel down with SIGPIPE.
        var offset = 0
        var attempts = 0
        while offset < line.count, attempts < 1000 {
            let written = line[offset...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written > 0 { offset += written } else if errno == EAGAIN || errno == EINTR { attempts += 1; usleep(1000) } else { break }
        }
        finish(client)
    }

    private func finish(_ client: Int32) {
        try? loop.unregister(client)
        Glibc.close(client)
        clients[client] = nil
    }

    /// Stops accepting, closes every connection and removes the socket file.
    package func close() {
        guard listener >= 0 else { return }
        for client in Array(clients.keys) { finish(client) }
        try? loop.unregister(listener)
        Glibc.close(listener)
        listener = -1
        unlink(path)
    }
}
