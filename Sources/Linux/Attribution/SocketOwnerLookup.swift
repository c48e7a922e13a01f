#if canImport(Glibc)
import Glibc
#endif
import CTunnelVision
import Shared

/// Names the program behind a connection (DESIGN.md § What is monitored): the kernel's sock_diag
/// finds the socket with that 5-tuple in the target's namespace (its inode and owner, in about
/// 5 µs), and /proc finds the process holding that inode. The netlink socket is made inside the
/// target's namespace, by a thread that joins it and ends (`ctv_socket_in_network_namespace`), as
/// a netlink socket answers for the namespace it was made in; /proc is the service's own, so pids
/// are as the service's namespace sees them.
///
/// One owner at a time, off the packet path: a blocking request and answer per lookup.
package final class SocketOwnerLookup {
    /// How long an answer may take before it is given up (the kernel answers in microseconds).
    static let answerTimeout = timeval(tv_sec: 1, tv_usec: 0)

    private let descriptor: Int32
    private let index: ProcessSocketIndex
    private var sequence: UInt32 = 0
    private var answer = [UInt8](repeating: 0, count: 8192)

    /// Opens the lookup for the namespace `namespaceDescriptor` refers to (the caller keeps and
    /// closes it); throws why when the socket cannot be made.
    package init(namespaceDescriptor: Int32, procRoot: String = "/proc") throws(SocketDiagMessage.Failure) {
        let made = ctv_socket_in_network_namespace(namespaceDescriptor, AF_NETLINK, Int32(SOCK_RAW.rawValue), SocketDiagMessage.netlinkProtocol)
        guard made >= 0 else { throw .socket(errno: -made) }
        var timeout = Self.answerTimeout
        _ = setsockopt(made, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        descriptor = made
        var status = stat()
        let namespace = fstat(namespaceDescriptor, &status) == 0
            ? ProcessSocketIndex.Namespace(device: UInt64(status.st_dev), inode: UInt64(status.st_ino)) : nil
        index = ProcessSocketIndex(procRoot: procRoot, namespace: namespace)
    }

    deinit { close(descriptor) }

    /// Searches of /proc so far (one per socket not seen before at most).
    package var procScans: Int { index.scans }

    /// A process found holding a wanted socket, and the descriptor it held it on.
    package struct Holder: Sendable, Equatable {
        package let pid: Int32
        package let descriptor: Int32?
    }

    /// The program whose socket is `lookup`'s local side, or why none can be named.
    package func attribution(of lookup: SocketDiagMessage.Lookup) -> ProgramAttribution { attributionAndHolder(of: lookup).0 }

    /// `attribution(of:)`, and the holder found, for another lookup to `remember`.
    func attributionAndHolder(of lookup: SocketDiagMessage.Lookup) -> (ProgramAttribution, Holder?) {
        let owner: SocketDiagMessage.Owner
        switch socketOwner(lookup) {
        case .success(let found): owner = found
        case .failure(.kernel(errno: ENOENT)): return (.socketGone, nil)
        case .failure(let failure): return (.unavailable(failure.description), nil)
        }
        guard owner.inode != 0, let pid = index.holder(of: owner.inode), let facts = index.facts(of: pid, uid: owner.uid) else {
            return (.socketGone, nil)
        }
        return (.program(facts), Holder(pid: pid, descriptor: index.heldDescriptor(of: pid)))
    }

    /// The attribution when it is quick to find — the socket is gone, or one of the latest holders
    /// holds it where it held the last one (`ProcessSocketIndex.quickHolder`); nil when finding
    /// it needs a search of /proc, or the kernel could not be asked.
    func quickAttribution(of lookup: SocketDiagMessage.Lookup) -> ProgramAttribution? {
        switch socketOwner(lookup) {
        case .success(let owner):
            guard owner.inode != 0 else { return .socketGone }
            guard let pid = index.quickHolder(of: owner.inode) else { return nil }
            return index.facts(of: pid, uid: owner.uid).map { .program($0) }
        case .failure(.kernel(errno: ENOENT)): return .socketGone
        case .failure: return nil
        }
    }

    /// Makes `holder` the latest holder, so the next quick look tries it first.
    package func remember(_ holder: Holder) { index.remember(holder.pid, descriptor: holder.descriptor) }

    /// The kernel's owner of the socket at `lookup`.
    package func socketOwner(_ lookup: SocketDiagMessage.Lookup) -> Result<SocketDiagMessage.Owner, SocketDiagMessage.Failure> {
        sequence &+= 1
        guard let request = SocketDiagMessage.request(lookup, sequence: sequence) else {
            return .failure(.malformed("\(lookup.proto) is not a protocol sock_diag looks up"))
        }
        let sent = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
        guard sent == request.count else { return .failure(.socket(errno: sent < 0 ? errno : EMSGSIZE)) }
        // Answers to requests given up on (a timeout) may come first: skipped by their sequence.
        while true {
            let received = answer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_TRUNC)) }
            if received < 0 {
                if errno == EINTR { continue }
                return .failure(.socket(errno: errno == EAGAIN ? ETIMEDOUT : errno))
            }
            guard received <= answer.count else { return .failure(.malformed("an answer of \(received) bytes, more than \(answer.count)")) }
            do throws(SocketDiagMessage.Failure) {
                if let owner = try SocketDiagMessage.owner(in: Array(answer[0..<received]), sequence: sequence) { return .success(owner) }
            } catch {
                return .failure(error)
            }
        }
    }
}
