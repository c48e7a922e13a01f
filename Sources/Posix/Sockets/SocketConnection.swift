#if canImport(Glibc)
import Glibc
#endif
import Shared

/// How far a non-blocking TCP connect has got.
package enum ConnectResult: Sendable, Equatable {
    case connected
    /// The handshake is under way: wait for the socket to become writable (or report an error),
    /// then ask `finishConnect`.
    case inProgress
    /// Refused, unreachable, timed out: the relay answers the monitored client accordingly.
    case failed(SocketError)
}

/// What a non-blocking stream read did. End of stream is its own case, not `.received(0)`, so a
/// caller cannot mistake the peer's FIN for an empty read.
package enum ReceiveResult: Sendable, Equatable {
    case received(Int)
    /// The peer shut down its sending side (FIN): no more bytes will come; we may still send.
    case endOfStream
    case wouldBlock
    case failed(Int32)
}

/// The relay's outbound TCP leg: a non-blocking socket in the host's namespace, TCP_NODELAY on
/// (the relay forwards what the client sent as it arrives; Nagle would add a round trip of delay
/// to every small write the client already chose to make).
///
/// Owned by one thread, the event loop's; every call answers at once with a value.
package final class TCPSocket {
    package let remote: IPEndpoint
    package private(set) var descriptor: Int32

    private init(remote: IPEndpoint, descriptor: Int32) {
        self.remote = remote
        self.descriptor = descriptor
    }

    /// Starts connecting to `remote`. Throws only when no socket could be made; a connect that
    /// fails at once is `.failed`, the same answer `finishConnect` gives for one that fails later.
    /// With `mark`, the socket carries it (SO_MARK, which needs CAP_NET_ADMIN) for the routing
    /// rules to tell it apart.
    package static func connect(to remote: IPEndpoint, mark: UInt32? = nil) throws(SocketError) -> (TCPSocket, ConnectResult) {
        let address = SocketAddress(remote)
        let descriptor = try openSocket(address.family, SOCK_STREAM, remote: remote, mark: mark)
        let socket = TCPSocket(remote: remote, descriptor: descriptor)
        var on: Int32 = 1
        guard setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw SocketError(.configure, remote: remote, errno: errno)
        }
        let result = address.withSockaddr { Glibc.connect(descriptor, $0, $1) }
        if result == 0 { return (socket, .connected) }
        switch errno {
        case EINPROGRESS, EINTR: return (socket, .inProgress)   // after EINTR the connect goes on
        case let failure: return (socket, .failed(SocketError(.connect, remote: remote, errno: failure)))
        }
    }

    /// Where the connect stands; call it when the loop reports the socket writable or in error.
    /// SO_ERROR carries the outcome; a socket with no error and no peer yet is still connecting.
    package func finishConnect() -> ConnectResult {
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length) == 0 else {
            return .failed(SocketError(.connect, remote: remote, errno: errno))
        }
        if failure != 0 { return .failed(SocketError(.connect, remote: remote, errno: failure)) }
        return SocketAddress.of(descriptor, peer: true) == nil ? .inProgress : .connected
    }

    /// The local address the kernel chose.
    package var localEndpoint: IPEndpoint? { SocketAddress.of(descriptor)?.endpoint }

    /// Sends what fits in the socket buffer; `.processed(n)` may be less than `bytes.count`.
    package func send(_ bytes: UnsafeRawBufferPointer) -> IOResult {
        IOResult.retryingInterrupts { Glibc.send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
    }

    package func receive(into buffer: UnsafeMutableRawBufferPointer) -> ReceiveResult {
        switch IOResult.retryingInterrupts({ recv(descriptor, buffer.baseAddress, buffer.count, 0) }) {
        case .processed(0) where buffer.count > 0: .endOfStream
        case .processed(let count): .received(count)
        case .wouldBlock: .wouldBlock
        case .failed(let failure): .failed(failure)
        }
    }

    /// Sends FIN after what is queued: the peer reads end of stream, and can still send to us
    /// (the client's half-close, relayed).
    package func shutdownWrite() throws(SocketError) {
        guard shutdown(descriptor, Int32(SHUT_WR)) == 0 else {
            throw SocketError(.shutdown, remote: remote, errno: errno)
        }
    }

    /// Unregister it from the event loop first.
    package func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    /// Closes with a reset instead of FIN (SO_LINGER with a zero timeout): the peer reads
    /// ECONNRESET, whatever was still queued is dropped, and the socket leaves no TIME_WAIT.
    /// When the option cannot be set the close is the ordinary one. Unregister it first.
    package func abort() {
        guard descriptor >= 0 else { return }
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close()
    }

    deinit { close() }
}

/// The relay's outbound UDP leg: a non-blocking socket connected to one remote, so the kernel
/// fills in the destination and drops datagrams from anyone else. Each send and receive moves
/// one whole datagram.
package final class UDPSocket {
    package let remote: IPEndpoint
    package private(set) var descriptor: Int32

    /// Opens the socket and fixes its remote. Connecting a UDP socket sends nothing, so a
    /// failure here (no route, family disabled) is final.
    /// `mark`: as `TCPSocket.connect`'s.
    package init(connectingTo remote: IPEndpoint, mark: UInt32? = nil) throws(SocketError) {
        let address = SocketAddress(remote)
        descriptor = try openSocket(address.family, SOCK_DGRAM, remote: remote, mark: mark)
        self.remote = remote
        let descriptor = descriptor
        guard address.withSockaddr({ Glibc.connect(descriptor, $0, $1) }) == 0 else {
            let failure = errno
            close()
            throw SocketError(.connect, remote: remote, errno: failure)
        }
    }

    /// The local address the kernel chose.
    package var localEndpoint: IPEndpoint? { SocketAddress.of(descriptor)?.endpoint }

    /// Sends one datagram, whole or not at all. `.failed(ECONNREFUSED)` reports an ICMP port
    /// unreachable for an earlier datagram.
    package func send(_ datagram: UnsafeRawBufferPointer) -> IOResult {
        IOResult.retryingInterrupts { Glibc.send(descriptor, datagram.baseAddress, datagram.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Receives one datagram; `.processed(n)` is its length (0 is a valid empty datagram). One
    /// longer than `buffer` is dropped and reported as `.failed(EMSGSIZE)`: a relay that forwards a
    /// cut datagram would corrupt it silently, so give it a buffer of the path's MTU or more.
    package func receive(into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        switch IOResult.retryingInterrupts({ recv(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_TRUNC)) }) {
        case .processed(let length) where length > buffer.count: .failed(EMSGSIZE)
        case let result: result
        }
    }

    package func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    deinit { close() }
}

/// A non-blocking, close-on-exec socket of `family` and `type`, carrying `mark` when given.
private func openSocket(_ family: Int32, _ type: __socket_type, remote: IPEndpoint, mark: UInt32?) throws(SocketError) -> Int32 {
    let descriptor = socket(family, Int32(type.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw SocketError(.create, remote: remote, errno: errno) }
    if var mark {
        guard setsockopt(descriptor, SOL_SOCKET, SO_MARK, &mark, socklen_t(MemoryLayout<UInt32>.size)) == 0 else {
            let failure = errno
            Glibc.close(descriptor)
            throw SocketError(.configure, remote: remote, errno: failure)
        }
    }
    return descriptor
}
