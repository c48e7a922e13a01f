#if canImport(Glibc)
import Glibc
#endif
import Posix
import Shared

/// The web server's listening TCP socket: non-blocking, close-on-exec, SO_REUSEADDR (a restart
/// finds its port free at once), IPv6 only for an IPv6 address.
enum WebListener {
    /// The descriptor and the address it is bound to (the real port when 0 was asked for).
    static func open(_ endpoint: IPEndpoint, backlog: Int32) throws(WebServerError) -> (descriptor: Int32, bound: IPEndpoint) {
        let address = SocketAddress(endpoint)
        let descriptor = socket(address.family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .listen(endpoint, call: "socket", errno: errno) }
        func fail(_ call: String) -> WebServerError {
            let failure = errno
            Glibc.close(descriptor)
            return .listen(endpoint, call: call, errno: failure)
        }
        var on: Int32 = 1
        guard setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw fail("setsockopt")
        }
        if address.family == AF_INET6,
           setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, socklen_t(MemoryLayout<Int32>.size)) != 0 {
            throw fail("setsockopt")
        }
        guard address.withSockaddr({ bind(descriptor, $0, $1) }) == 0 else { throw fail("bind") }
        guard listen(descriptor, backlog) == 0 else { throw fail("listen") }
        guard let bound = SocketAddress.of(descriptor)?.endpoint else { throw fail("getsockname") }
        return (descriptor, bound)
    }
}
