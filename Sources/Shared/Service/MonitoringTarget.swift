/// What a monitoring service watches (DESIGN.md § What is monitored): the namespace it runs in,
/// another network namespace, a process's namespace (a container's), all routed through the
/// tunnel; or an interface, watched passively. Both halves know it: the app asks for one, the
/// service sets it up.
package enum MonitoringTarget: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The namespace the service runs in (`up --host`), never "PID 1's".
    case host
    /// A named network namespace (`up --netns NAME`, as `ip netns` names it).
    case namespace(String)
    /// The network namespace of a process (`up --pid PID`): a container's, found from a process in it.
    case process(Int32)
    /// An interface watched passively (`up --interface IF`; `any` for every one).
    case interface(String)

    /// Passive: no route is touched and nothing is relayed, so nothing can be inspected.
    package var isPassive: Bool { if case .interface = self { true } else { false } }

    package var description: String {
        switch self {
        case .host: "the host (the namespace the service runs in)"
        case let .namespace(name): "network namespace \(name)"
        case let .process(pid): "the network namespace of process \(pid)"
        case let .interface(name): name == "any" ? "every interface, passively" : "interface \(name), passively"
        }
    }

    /// Why the target cannot be named so, or nil when it can.
    package var invalidity: String? {
        switch self {
        case .host:
            return nil
        case let .namespace(name):
            // ip netns keeps a name as a file under /run/netns: one path component.
            if name.isEmpty { return "a network namespace needs a name" }
            if name == "." || name == ".." || name.contains("/") || name.utf8.contains(0) {
                return "\(name.debugDescription) is not a namespace name (one path component, no /)"
            }
            if name.utf8.count > Self.namespaceNameLimit {
                return "a namespace name has at most \(Self.namespaceNameLimit) bytes; \(name.debugDescription) has \(name.utf8.count)"
            }
            return nil
        case let .process(pid):
            return pid > 0 ? nil : "a process ID is a positive number, not \(pid)"
        case let .interface(name):
            // The kernel's own rule (net/core/dev.c, dev_valid_name): shorter than IFNAMSIZ, not
            // "." or "..", and no '/', ':' or white space.
            if name.isEmpty { return "an interface needs a name" }
            if name.utf8.count >= Self.interfaceNameSize {
                return "an interface name has at most \(Self.interfaceNameSize - 1) bytes; \(name.debugDescription) has \(name.utf8.count)"
            }
            if name == "." || name == ".." || name.unicodeScalars.contains(where: { $0 == "/" || $0 == ":" || $0.properties.isWhitespace })
                || name.utf8.contains(0) {
                return "\(name.debugDescription) is not an interface name (no /, : or spaces)"
            }
            return nil
        }
    }

    /// NAME_MAX: the longest file name, and so the longest `ip netns` name.
    static let namespaceNameLimit = 255
    /// IFNAMSIZ: an interface name and its terminating NUL.
    static let interfaceNameSize = 16
}
