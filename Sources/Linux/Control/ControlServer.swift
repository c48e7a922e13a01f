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
///
/// The loop is the data path's, so nothing here may block it or let a local program hold it:
/// replies are queued and written as the socket takes them, and each connection's bytes, time
/// and number are bounded (`ControlServerLimits`; the decisions are `ControlConnection`'s).
/// What was refused is counted in `stats` and added to every `stats` answer.
package final class ControlServer {
    package typealias Handler = (ControlCommand) -> ControlResponse

    let path: String
    package let limits: ControlServerLimits
    private let loop: EventLoop
    private let handler: Handler
    private var listener: Int32 = -1
    private var connections: [Int32: Served] = [:]
    /// What was answered and refused so far (loop thread).
    package private(set) var stats = ControlStats()
    /// One read's memory, shared by every connection: the loop serves one at a time.
    private var scratch: [UInt8]

    private struct Served {
        var connection: ControlConnection
        let deadline: TimerID
    }

    /// Binds the socket at `path` (replacing a stale one) and starts accepting on `loop`. Call on
    /// the loop thread or before it runs.
    package init(path: String, loop: EventLoop, limits: ControlServerLimits = .standard,
                 handler: @escaping Handler) throws(ControlSocketError) {
        self.path = path
        self.loop = loop
        self.limits = limits
        self.handler = handler
        scratch = [UInt8](repeating: 0, count: limits.maximumCommandBytes + 1)
        guard let address = UnixSocketAddress(path: path) else { throw .pathTooLong(path) }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .failed("socket", path: path, errno: errno) }
        unlink(path)   // a socket left by a tunnel that died; a live one holds the ring's lock first
        // Only the owner may steer the tunnel: 0600. chmod rather than umask, which is the whole
        // process's; until the chmod, no other user has the write permission connect(2) needs
        // unless the umask itself grants it.
        let bound = address.withSockaddr { bind(descriptor, $0, $1) }
        guard bound == 0, chmod(path, 0o600) == 0, listen(descriptor, limits.listenBacklog) == 0 else {
            let failure = errno
            Glibc.close(descriptor)
            throw .failed("bind", path: path, errno: failure)
        }
        listener = descriptor
        do {
            try loop.register(descriptor, interest: .read) { [weak self] _ in self?.acceptWaiting() }
        } catch {
            Glibc.close(descriptor)
            unlink(path)
            throw .failed("register", path: path, errno: EINVAL)
        }
    }

    /// Stops accepting, closes every connection and removes the socket file.
    package func close() {
        guard listener >= 0 else { return }
        for client in Array(connections.keys) { finish(client, counting: nil) }
        try? loop.unregister(listener)
        Glibc.close(listener)
        listener = -1
        unlink(path)
    }

    // MARK: Accepting

    private func acceptWaiting() {
        ListenerAcceptor(burst: limits.acceptBurst, retryDelay: limits.acceptRetryDelay).acceptWaiting(
            on: listener, loop: loop, listening: { [weak self] in (self?.listener ?? -1) >= 0 },
            paused: { _ in stats.acceptFailures += 1 },
            accepted: { client in limits.admits(open: connections.count) ? serve(client) : refuseAtOnce(client) })
    }

    private func serve(_ client: Int32) {
        do {
            try loop.register(client, interest: .read) { [weak self] _ in self?.ready(client) }
        } catch {
            Glibc.close(client)
            stats.record(.clientGone)
            return
        }
        let deadline = loop.schedule(after: limits.exchangeDeadline) { [weak self] in self?.deadlinePassed(client) }
        connections[client] = Served(connection: ControlConnection(limits: limits), deadline: deadline)
    }

    /// Over the cap: the error line goes out in one send (a fresh socket's buffer takes it), and
    /// the connection is closed without ever being watched.
    private func refuseAtOnce(_ client: Int32) {
        var connection = ControlConnection(limits: limits)
        var action = connection.refuseOverCap()
        while case .send(let bytes) = action { action = connection.wrote(ServedClient.send(bytes, to: client)) }
        Glibc.close(client)
        if case .close(let reason) = action { stats.record(reason) }
    }

    // MARK: One connection

    private func ready(_ client: Int32) {
        // No copy of the connection is kept across the read: `received` appends in place.
        guard let receiving = connections[client]?.connection.isReceiving else { return }
        guard receiving, let limit = connections[client]?.connection.readLimit else {
            if let action = connections[client]?.connection.writable() { drive(client, action) }
            return
        }
        let result = ServedClient.read(client, into: &scratch, limit: limit)
        let action: ControlConnection.Action? = switch result {
        case .processed(0): connections[client]?.connection.endOfStream()
        case .processed(let count): connections[client]?.connection.received(scratch[..<count])
        case .wouldBlock: nil
        case .failed: connections[client]?.connection.failed()
        }
        if let action { drive(client, action) }
    }

    private func deadlinePassed(_ client: Int32) {
        guard let action = connections[client]?.connection.deadlinePassed() else { return }
        drive(client, action)
    }

    /// Does what the connection asks until it waits for the socket or is closed.
    private func drive(_ client: Int32, _ first: ControlConnection.Action) {
        var action = first
        while true {
            let next: ControlConnection.Action?
            switch action {
            case .awaitCommand, .closed:
                return
            case .execute(let line):
                let reply = answer(line)
                next = connections[client]?.connection.respond(reply)
            case .send(let bytes):
                next = connections[client]?.connection.wrote(ServedClient.send(bytes, to: client))
            case .awaitWritable:
                do {
                    try loop.modify(client, interest: .write)
                    return
                } catch {
                    next = connections[client]?.connection.failed()
                }
            case .close(let reason):
                return finish(client, counting: reason)
            }
            guard let next else { return }
            action = next
        }
    }

    /// The reply line to `line`, newline included. A `stats` answer gets this server's counters.
    private func answer(_ line: [UInt8]) -> [UInt8] {
        var response: ControlResponse
        do {
            response = handler(try ControlChannel.decodeCommand(Data(line)))
        } catch {
            response = .failed("\(error)")
        }
        if case .stats(var tunnel) = response {
            tunnel.control = stats
            response = .stats(tunnel)
        }
        var encoded = [UInt8](ControlChannel.encode(response))
        encoded.append(UInt8(ascii: "\n"))
        return encoded
    }

    private func finish(_ client: Int32, counting reason: ControlCloseReason?) {
        guard let served = connections.removeValue(forKey: client) else { return }
        loop.cancel(served.deadline)
        ServedClient.close(client, on: loop)
        if let reason { stats.record(reason) }
    }
}
