#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Names for the namespaces this program creates: a prefix, the creating process's id and a
/// counter (`tvlab-4242-3`). The pid makes leftovers recognisable: a namespace whose creator is
/// dead was left by a crash or a kill, and the next run removes it — never anyone else's.
package enum NamespaceName {
    private static let counter = Atomic<Int>(0)

    package static func make(prefix: String) -> String {
        "\(prefix)-\(getpid())-\(counter.add(1, ordering: .relaxed).newValue)"
    }

    /// The creator's pid encoded in `name`, if it is one of ours with `prefix`.
    static func creator(of name: String, prefix: String) -> pid_t? {
        guard name.hasPrefix(prefix + "-") else { return nil }
        let parts = name.dropFirst(prefix.count + 1).split(separator: "-")
        guard parts.count == 2, let pid = pid_t(parts[0]), Int(parts[1]) != nil else { return nil }
        return pid
    }

    /// Deletes namespaces named with `prefix` whose creating process no longer exists, and
    /// their /etc/netns/NAME/ folders. Returns the namespaces' names.
    @discardableResult
    package static func removeLeftovers(prefix: String) -> [String] {
        LeftoverSweeper.sweepNamespaces(prefix: prefix).removed.compactMap {
            if case let .namespace(name) = $0 { name } else { nil }
        }
    }
}
