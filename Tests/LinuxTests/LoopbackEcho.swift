#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Posix
import Shared

/// Echo servers on 127.0.0.1 for the in-memory tunnel's tests, each on its own thread with plain
/// blocking sockets: TCP echoes every chunk and answers the client's FIN with its own; UDP sends
/// every datagram back. Nothing leaves loopback. The thread holds the server until `stop`.
final class LoopbackEcho: @unchecked Sendable {
    let endpoint: IPEndpoint
    private let descriptor: Int32
    private let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var receivedBytes = Data()
    private var sawEndOfStream = false
    private var sawReset = false
    private var stopping = false
    /// Held until `releaseReads`, when the server was made holding its reads.
    private let readsReleased: DispatchSemaphore?

    /// Echoes one TCP connection, then closes. `holdingReads`: the connection is accepted, but
    /// nothing is read from it until `releaseReads`, through a small receive buffer — so the
    /// relay's socket soon takes only part of what it is given.
    static func tcp(holdingReads: Bool = false) throws -> LoopbackEcho {
        try LoopbackEcho(type: SOCK_STREAM, holdingReads: holdingReads)
    }
    /// Echoes datagrams until closed.
    static func udp() throws -> LoopbackEcho { try LoopbackEcho(type: SOCK_DGRAM) }

    /// Lets a server made `holdingReads` read (call it once).
    func releaseReads() { readsReleased?.signal() }

    private init(type: __socket_type, holdingReads: Bool = false) throws {
        let descriptor = socket(AF_INET, Int32(type.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SocketError(.create, errno: errno) }
        readsReleased = holdingReads ? DispatchSemaphore(value: 0) : nil
        if holdingReads {
            // Set before listen, so the accepted connection has it from its handshake on.
            var size: Int32 = 4096
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let loopback = IPEndpoint(address: IPAddress(parsing: "127.0.0.1")!, port: 0)
        guard SocketAddress(loopback).withSockaddr({ bind(descriptor, $0, $1) }) == 0,
              type != SOCK_STREAM || listen(descriptor, 1) == 0,
              let bound = SocketAddress.of(descriptor)?.endpoint else {
            let failure = errno
            close(descriptor)
            throw SocketError(.create, errno: failure)
        }
        self.descriptor = descriptor
        endpoint = bound
        let server = Thread { [self] in
            if type == SOCK_STREAM { serveOneConnection() } else { serveDatagrams() }
            finished.signal()
        }
        server.start()
    }

    /// Stops the server and waits for its thread (call it once, in a defer).
    func stop() {
        lock.lock()
        stopping = true
        lock.unlock()
        readsReleased?.signal()                  // a server still holding its reads goes on to its end
        shutdown(descriptor, Int32(SHUT_RDWR))   // wakes a thread still waiting in poll
        finished.wait()
        close(descriptor)
    }

    /// What the server read, and whether it read the client's FIN.
    var received: (bytes: Data, endOfStream: Bool) {
        lock.lock()
        defer { lock.unlock() }
        return (receivedBytes, sawEndOfStream)
    }

    /// How many bytes the server read (without copying them out).
    var receivedByteCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return receivedBytes.count
    }

    /// Whether the TCP connection ended in a reset (ECONNRESET) rather than an end of stream.
    var wasReset: Bool {
        lock.lock()
        defer { lock.unlock() }
        return sawReset
    }

    private func serveOneConnection() {
        guard waitReadable(descriptor) else { return }
        let connection = accept(descriptor, nil, nil)
        guard connection >= 0 else { return }
        defer { close(connection) }
        readsReleased?.wait()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while waitReadable(connection) {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else {
                if count < 0, errno == ECONNRESET {
                    lock.lock()
                    sawReset = true
                    lock.unlock()
                }
                if count == 0 {
                    lock.lock()
                    sawEndOfStream = true
                    lock.unlock()
                    shutdown(connection, Int32(SHUT_WR))
                    // Wait for the relay to close its end before closing ours.
                    _ = waitReadable(connection)
                }
                return
            }
            lock.lock()
            receivedBytes.append(contentsOf: buffer[..<count])
            lock.unlock()
            _ = send(connection, buffer, count, Int32(MSG_NOSIGNAL))
        }
    }

    private func serveDatagrams() {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while waitReadable(descriptor) {
            var peer = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let count = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(descriptor, &buffer, buffer.count, 0, $0, &length) }
            }
            lock.lock()
            let stop = stopping
            if count > 0 { receivedBytes.append(contentsOf: buffer[..<count]) }
            lock.unlock()
            guard count >= 0, !stop else { return }
            _ = withUnsafePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(descriptor, buffer, count, 0, $0, length) }
            }
        }
    }

    /// Readable within 10 s (a test that failed early must not leave the thread blocked for ever).
    private func waitReadable(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 10_000) == 1 && entry.revents & Int16(POLLNVAL) == 0
    }
}
