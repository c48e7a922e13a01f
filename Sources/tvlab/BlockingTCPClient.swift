#if canImport(Glibc)
import Glibc
#endif
import Linux
import Posix
import Shared

/// A blocking TCP client socket for `tvlab net rr | crr | hold`: one byte out, one byte back, each
/// call finished when it returns. TCP_NODELAY is on, so a 1-byte write leaves at once (Nagle
/// would hold it for the previous one's ACK and measure the delayed-ACK timer, not the path).
/// Every call gives up after `timeoutSeconds`, so a path that loses a segment for good is
/// reported as such instead of holding the benchmark until it is killed.
struct BlockingTCPClient {
    let descriptor: Int32
    let remote: IPEndpoint

    static let timeoutSeconds = 10

    static func connect(to remote: IPEndpoint) throws(Failure) -> BlockingTCPClient {
        let address = SocketAddress(remote)
        let descriptor = socket(address.family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure("cannot open a socket", errno: errno) }
        var on: Int32 = 1
        guard setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            let failure = errno
            Glibc.close(descriptor)
            throw Failure("cannot set TCP_NODELAY", errno: failure)
        }
        // SO_SNDTIMEO bounds connect as well as send (socket(7)).
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        for option in [SO_SNDTIMEO, SO_RCVTIMEO] {
            _ = setsockopt(descriptor, SOL_SOCKET, option, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        while address.withSockaddr({ Glibc.connect(descriptor, $0, $1) }) != 0 {
            guard errno == EINTR else {
                let failure = errno
                Glibc.close(descriptor)
                if failure == EINPROGRESS { throw Failure("no connection to \(remote) within \(timeoutSeconds) s") }
                throw Failure("cannot connect to \(remote)", errno: failure)
            }
            // After EINTR the handshake goes on in the kernel; wait for it like a non-blocking one.
            var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&poller, 1, -1)
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length)
            if failure == 0 { break }
            Glibc.close(descriptor)
            throw Failure("cannot connect to \(remote)", errno: failure)
        }
        return BlockingTCPClient(descriptor: descriptor, remote: remote)
    }

    func send(_ byte: UInt8) throws(Failure) {
        var byte = byte
        while true {
            let sent = Glibc.send(descriptor, &byte, 1, Int32(MSG_NOSIGNAL))
            if sent == 1 { return }
            guard sent < 0, errno == EINTR else {
                if sent < 0 && errno == EAGAIN { throw Failure("\(remote) took no byte within \(Self.timeoutSeconds) s") }
                throw Failure("cannot send to \(remote)", errno: sent < 0 ? errno : EIO)
            }
        }
    }

    /// The next byte; the server closing first is a failure (an echo server never does).
    func receive() throws(Failure) -> UInt8 {
        var byte: UInt8 = 0
        while true {
            let received = recv(descriptor, &byte, 1, 0)
            if received == 1 { return byte }
            if received == 0 { throw Failure("\(remote) closed the connection") }
            guard errno == EINTR else {
                if errno == EAGAIN { throw Failure("no answer from \(remote) within \(Self.timeoutSeconds) s") }
                throw Failure("cannot receive from \(remote)", errno: errno)
            }
        }
    }

    /// One byte there and back, checked to be the same byte.
    func roundTrip(_ byte: UInt8) throws(Failure) {
        try send(byte)
        let echoed = try receive()
        guard echoed == byte else { throw Failure("\(remote) echoed \(echoed), not \(byte)") }
    }

    func close() {
        Glibc.close(descriptor)
    }

    /// Closes with a reset (SO_LINGER 0) instead of FIN, so the socket skips TIME_WAIT: a client
    /// making thousands of connections a second to one server would otherwise hold every port
    /// of the ephemeral range (about 28 000) in TIME_WAIT within seconds, and measure that limit.
    func abort() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        Glibc.close(descriptor)
    }
}

/// The open-file limit, raised for tools that hold a thousand sockets or more.
enum DescriptorLimit {
    /// Raises the soft RLIMIT_NOFILE to the hard limit and returns the new soft limit.
    @discardableResult
    static func raiseToHard() throws(Failure) -> UInt64 {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0 else { throw Failure("cannot read the open-file limit", errno: errno) }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            guard setrlimit(resource, &limit) == 0 else { throw Failure("cannot raise the open-file limit", errno: errno) }
        }
        return UInt64(limit.rlim_cur)
    }
}
