#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The network namespace the command runs in, and what `ip netns exec NAME` does for a command
/// there (iproute2's netns_switch): /sys remounted to show the namespace's devices, and every
/// file of /etc/netns/NAME/ bind-mounted over its namesake in /etc/ (our resolv.conf).
package struct CommandNamespace: Sendable, Equatable {
    /// Where `ip netns add` pins namespaces (iproute2's NETNS_RUN_DIR).
    static let pinDirectory = "/var/run/netns"
    static let etcDirectory = "/etc/netns"

    package let name: String

    package init(name: String) { self.name = name }

    var pinPath: String { "\(Self.pinDirectory)/\(name)" }

    /// Each entry of /etc/netns/NAME/ over /etc/ENTRY, in the order listed.
    package func bindMounts(entries: [String]) -> [(source: String, target: String)] {
        entries.filter { $0 != "." && $0 != ".." }
            .map { ("\(Self.etcDirectory)/\(name)/\($0)", "/etc/\($0)") }
    }

    /// The entries of /etc/netns/NAME/ (none when the folder is absent, as ip netns exec treats it).
    func etcEntries() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "\(Self.etcDirectory)/\(name)")) ?? []).sorted()
    }
}
