#if canImport(Glibc)
import Glibc
#endif
import Linux
import Posix
import Shared

/// `tvlab net echo-server --port P`: a TCP server on every IPv4 address that sends back whatever
/// it reads, for the round-trip, connection-rate and open-flows figures of `bench tunnel`. One
/// thread, one epoll loop, so a thousand held connections cost a thousand descriptors and
/// nothing more. It runs until killed.
final class EchoServer {
    /// Bytes read per call; also the most a connection may have waiting to be echoed.
    static let bufferSize = 64 * 1024
    static let backlog: Int32 = 4096

    private let loop: EventLoop
    private let listener: Int32
    /// Bytes read but not yet echoed, per connection with a full send buffer. While a connection
    /// has some, it is watched for writing only: it reads nothing more until they are gone.
    private var pending: [Int32: [UInt8]] = [:]
    private var buffer = [UInt8](repeating: 0, count: EchoServer.bufferSize)

    static func run(port: UInt16) throws(Failure) -> Never {
        // A thousand flows held open, plus the loop's own descriptors, pass the usual 1 024.
        try DescriptorLimit.raiseToHard()
        let server = try EchoServer(port: port)
        do { try server.loop.run() } catch { throw Failure("echo server: \(error)") }
        throw Failure("echo server: the event loop stopped")
    }

    private init(port: UInt16) throws(Failure) {
        do { loop = try EventLoop() } catch { throw Failure("echo server: \(error)") }
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw Failure("echo server: cannot open a socket", errno: errno) }
        var on: Int32 = 1
        _ = setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = INADDR_ANY
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw Failure("echo server: cannot listen on port \(port)", errno: errno) }
        guard listen(listener, Self.backlog) == 0 else { throw Failure("echo server: cannot listen", errno: errno) }
        do {
            try loop.register(listener, interest: .read) { [unowned self] _ in acceptAll() }
        } catch { throw Failure("echo server: \(error)") }
    }

    private func acceptAll() {
        while true {
            // accept4 is declared only under _GNU_SOURCE; it spawns nothing, so close-on-exec is moot.
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EAGAIN: return
                case let failure:
                    // EMFILE and the like: the rest wait in the backlog until a connection closes.
                    Console.error("echo server: cannot accept: \(SystemError.text(failure))")
                    return
                }
            }
            _ = fcntl(connection, F_SETFL, fcntl(connection, F_GETFL) | O_NONBLOCK)
            var on: Int32 = 1
            _ = setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            do {
                try loop.register(connection, interest: .read) { [unowned self] readiness in serve(connection, readiness) }
            } catch {
                Console.error("echo server: \(error)")
                Glibc.close(connection)
            }
        }
    }

    private func serve(_ connection: Int32, _ readiness: EventLoop.Readiness) {
        if var waiting = pending[connection] {
            guard let left = waiting.withUnsafeBytes({ Self.send(connection, $0) }) else { return drop(connection) }
            waiting.removeFirst(waiting.count - left)
            if waiting.isEmpty {
                pending[connection] = nil
                modify(connection, .read)
            } else {
                pending[connection] = waiting
            }
            return
        }
        let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
        if count == 0 { return drop(connection) }
        if count < 0 {
            if errno == EAGAIN || errno == EINTR { return }
            return drop(connection)   // a reset: the rate client closes that way on purpose
        }
        // Echoed straight from the read buffer; only what the socket would not take is copied.
        guard let left = buffer.withUnsafeBytes({ Self.send(connection, UnsafeRawBufferPointer(rebasing: $0[..<count])) }) else {
            return drop(connection)
        }
        if left > 0 {
            pending[connection] = Array(buffer[(count - left)..<count])
            modify(connection, .write)
        }
    }

    /// Sends what the socket takes of `bytes`; returns how many are left, or nil when the
    /// connection failed.
    private static func send(_ connection: Int32, _ bytes: UnsafeRawBufferPointer) -> Int? {
        var offset = 0
        while offset < bytes.count {
            let sent = Glibc.send(connection, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if sent > 0 {
                offset += sent
            } else if sent < 0 && errno == EINTR {
                continue
            } else {
                return sent < 0 && errno == EAGAIN ? bytes.count - offset : nil
            }
        }
        return 0
    }

    private func modify(_ connection: Int32, _ interest: EventLoop.Interest) {
        do { try loop.modify(connection, interest: interest) } catch {
            Console.error("echo server: \(error)")
            drop(connection)
        }
    }

    private func drop(_ connection: Int32) {
        pending[connection] = nil
        do { try loop.unregister(connection) } catch { Console.error("echo server: \(error)") }
        Glibc.close(connection)
    }
}
