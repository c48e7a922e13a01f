#if canImport(Glibc)
import Glibc
#endif
import CTunnelVision
import Shared

/// An rtnetlink socket opened inside one network namespace, asking for one interface's kernel
/// statistics (`LinkStatisticsMessage`). The TUN device lives in the monitored namespace while
/// the tunnel runs in another, and a netlink socket answers for the namespace it was made in, so
/// it is made there by a thread that joins it and ends (`ctv_socket_in_network_namespace`); no
/// thread of ours ever stays in another namespace, and no `ip` is run.
///
/// One owner at a time: a blocking request and answer, bounded by `answerTimeout`.
final class LinkStatisticsSocket {
    /// How long an answer may take before the read is given up (the kernel answers in microseconds).
    static let answerTimeout = timeval(tv_sec: 1, tv_usec: 0)
    static let answerCapacity = 32 * 1024
    /// NETLINK_ROUTE (linux/netlink.h), which Glibc does not export.
    static let routeProtocol: Int32 = 0

    /// The namespace the socket answers for: its device and inode, to know it again.
    let namespace: NamespaceIdentity
    private let descriptor: Int32
    private var sequence: UInt32 = 0
    private var answer = [UInt8](repeating: 0, count: answerCapacity)

    /// A network namespace as `fstat` of its descriptor tells it apart.
    struct NamespaceIdentity: Equatable {
        let device: UInt64
        let inode: UInt64

        init?(descriptor: Int32) {
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { return nil }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    /// Opens the socket inside the namespace `namespaceDescriptor` refers to (the caller keeps
    /// and closes its descriptor); throws why when it cannot.
    init(namespaceDescriptor: Int32) throws(LinkStatisticsError) {
        guard let identity = NamespaceIdentity(descriptor: namespaceDescriptor) else { throw .namespace(errno: errno) }
        let made = ctv_socket_in_network_namespace(namespaceDescriptor, AF_NETLINK, Int32(SOCK_RAW.rawValue), Self.routeProtocol)
        guard made >= 0 else { throw .socket(errno: -made) }
        var timeout = Self.answerTimeout
        _ = setsockopt(made, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        namespace = identity
        descriptor = made
    }

    deinit { close(descriptor) }

    /// The kernel's counters for the interface `name` in the socket's namespace.
    func counters(of name: String) throws(LinkStatisticsError) -> DeviceKernelCounters {
        sequence &+= 1
        let request = LinkStatisticsMessage.request(name: name, sequence: sequence)
        let sent = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
        guard sent == request.count else { throw .socket(errno: sent < 0 ? errno : EMSGSIZE) }
        // Answers to requests given up on (a timeout) may come first: skipped by their sequence.
        while true {
            let received = answer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_TRUNC)) }
            if received < 0 {
                if errno == EINTR { continue }
                throw .socket(errno: errno == EAGAIN ? ETIMEDOUT : errno)
            }
            guard received <= answer.count else { throw .answer(.malformed("an answer of \(received) bytes, more than \(answer.count)")) }
            do throws(LinkStatisticsMessage.Failure) {
                if let counters = try LinkStatisticsMessage.counters(in: Array(answer[0..<received]), sequence: sequence) {
                    return counters
                }
            } catch {
                throw .answer(error)
            }
        }
    }
}

/// Why the kernel's counters for the TUN device could not be read; each says what stands in the way.
package enum LinkStatisticsError: Error, Equatable, CustomStringConvertible {
    /// The device's namespace could not be found (TUNGETDEVNETNS needs Linux 5.2 and CAP_NET_ADMIN).
    case namespace(errno: Int32)
    /// The netlink socket could not be made or used.
    case socket(errno: Int32)
    /// The kernel's answer gave no counters.
    case answer(LinkStatisticsMessage.Failure)
    /// The device is closed.
    case closed

    package var description: String {
        switch self {
        case .namespace(let code): "the TUN device's network namespace could not be found: \(SystemError.text(code))"
        case .socket(let code): "the kernel's statistics could not be asked for: \(SystemError.text(code))"
        case .answer(let failure): "\(failure)"
        case .closed: "the TUN device is closed"
        }
    }
}
