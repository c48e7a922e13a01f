#if canImport(Glibc)
import Glibc
#endif
import Shared

/// The namespace a routed service works in, and how each tool reaches it: by the name `ip netns`
/// gives it, or — for a container found from one of its processes — by a descriptor of its
/// namespace the service holds from the start, so the namespace cannot change under it when the
/// process ends and its PID is reused. The host is the namespace the service runs in.
package final class RoutedTarget: Sendable {
    package let target: MonitoringTarget
    /// What a thread joins (setns) and nsenter enters: /var/run/netns/NAME or /proc/SELF/fd/N.
    package let path: String
    /// `ip` run inside it.
    package let ip: [String]
    /// What `ip link set DEV netns …` takes to move a device in: the name, or the process ID.
    let linkDestination: String
    /// The namespace held open (a process's), or -1.
    private let held: Int32

    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case noNamespace(String)
        case noProcess(Int32)
        case unreadable(Int32, errno: Int32)
        /// The process is in the namespace the service runs in: that is `--host`, not a container.
        case ownNamespace(Int32)
        case notRouted(MonitoringTarget)

        package var description: String {
            switch self {
            case .noNamespace(let name): "there is no network namespace \(name) ('ip netns list' shows them)"
            case .noProcess(let pid): "there is no process \(pid)"
            case let .unreadable(pid, code): "cannot open the network namespace of process \(pid): \(SystemError.text(code))"
            case .ownNamespace(let pid): "process \(pid) is in the network namespace this service runs in: that is the host "
                + "(--host), not a container's namespace"
            case .notRouted(let target): "\(target) is not a routed target"
            }
        }
    }

    package init(_ target: MonitoringTarget) throws(Failure) {
        self.target = target
        switch target {
        case .namespace(let name):
            guard !name.contains("/"), access("/var/run/netns/\(name)", F_OK) == 0 else { throw .noNamespace(name) }
            path = "/var/run/netns/\(name)"
            ip = ["ip", "-n", name]
            linkDestination = name
            held = -1
        case .process(let pid):
            let descriptor = open("/proc/\(pid)/ns/net", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                let failure = errno
                throw failure == ENOENT ? .noProcess(pid) : .unreadable(pid, errno: failure)
            }
            guard let theirs = Self.identity(descriptor), let ours = Self.identity(path: "/proc/self/ns/net"), theirs != ours else {
                close(descriptor)
                throw .ownNamespace(pid)
            }
            held = descriptor
            path = "/proc/\(getpid())/fd/\(descriptor)"
            ip = ["nsenter", "--net=\(path)", "ip"]
            linkDestination = "\(pid)"
        case .host:
            // The namespace this process runs in — never "PID 1's". Held like a process's, so a
            // device moved "in" by our own PID can be checked like any other.
            let descriptor = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw .unreadable(getpid(), errno: errno) }
            held = descriptor
            path = "/proc/\(getpid())/fd/\(descriptor)"
            ip = ["ip"]
            linkDestination = "\(getpid())"
        case .interface:
            throw .notRouted(target)
        }
    }

    deinit { if held >= 0 { close(held) } }

    /// Whether the namespace `descriptor` refers to is this target's: a device moved in by
    /// process ID must have landed where the target was when the service started.
    package func contains(namespace descriptor: Int32) -> Bool {
        guard let other = Self.identity(descriptor) else { return false }
        return Self.identity(path: path) == other
    }

    /// A namespace's identity: its file's device and inode.
    private static func identity(_ descriptor: Int32) -> [UInt64]? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        return [UInt64(status.st_dev), UInt64(status.st_ino)]
    }

    private static func identity(path: String) -> [UInt64]? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return [UInt64(status.st_dev), UInt64(status.st_ino)]
    }
}
