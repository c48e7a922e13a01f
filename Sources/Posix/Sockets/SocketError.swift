#if canImport(Glibc)
import Glibc
#endif
import Shared

/// A relay socket call that failed: what was attempted, toward whom, and the errno.
package struct SocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call that failed.
    package enum Operation: String, Sendable, Equatable {
        case create = "open a socket"
        case configure = "configure a socket"
        case connect = "connect"
        case send = "send"
        case receive = "receive"
        case shutdown = "shut down sending"
    }

    package let operation: Operation
    /// The remote end, when the call had one.
    package let remote: IPEndpoint?
    package let errno: Int32

    package init(_ operation: Operation, remote: IPEndpoint? = nil, errno: Int32) {
        self.operation = operation
        self.remote = remote
        self.errno = errno
    }

    /// What a person reads: the call, the peer, the system's words, and for the common causes
    /// what to do about them. For the relay, refused and unreachable are answers to pass back to
    /// the monitored client (a RST, an ICMP error), not faults of TunnelVision.
    package var description: String {
        let target = remote.map { " \($0)" } ?? ""
        return "cannot \(operation.rawValue)\(target): \(SystemError.text(errno))" + (hint.map { " (\($0))" } ?? "")
    }

    private var hint: String? {
        switch errno {
        case ECONNREFUSED: "nothing listens on that port"
        case ENETUNREACH, EHOSTUNREACH: "the host namespace has no route there"
        case ETIMEDOUT: "the remote never answered"
        case EMFILE, ENFILE: "too many open descriptors: raise ulimit -n"
        case EAFNOSUPPORT: "this address family is disabled on the host"
        default: nil
        }
    }
}
