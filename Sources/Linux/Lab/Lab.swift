import Shared

/// A lab of namespaces for the demo and the end-to-end tests (DESIGN.md § Networks in tests):
/// `server` holds real servers; `host` plays the machine the tunnel runs on, joined to `server`
/// by a veth pair; the monitored namespace (made by `TunnelNamespacePlan`) reaches `host` only
/// through the tunnel. Addresses come from 198.19.0.0/24 and fd00:19::/64 — outside the tunnel's
/// own 198.18.0.0/24 — and nothing touches the root namespace.
package final class Lab: Sendable {
    static let namePrefix = "tvlab"

    package static let hostIPv4 = "198.19.0.1"
    package static let serverIPv4 = "198.19.0.2"
    static let hostIPv6 = "fd00:19::1"
    package static let serverIPv6 = "fd00:19::2"
    static let ipv4PrefixLength = 24
    static let ipv6PrefixLength = 64

    package let host: NetworkNamespace
    package let server: NetworkNamespace
    /// The namespace that will be monitored; the tunnel's device is moved into it.
    package let monitored: NetworkNamespace

    /// Builds the lab, first removing any a crashed run left. On failure, what was made is removed.
    package init() throws(CommandError) {
        NamespaceName.removeLeftovers(prefix: Self.namePrefix)
        var made: [NetworkNamespace] = []
        do throws(CommandError) {
            for _ in 0..<3 { made.append(try NetworkNamespace.create(NamespaceName.make(prefix: Self.namePrefix))) }
        } catch {
            made.forEach { $0.delete() }
            throw error
        }
        host = made[0]
        server = made[1]
        monitored = made[2]
        do throws(CommandError) {
            for command in Self.commands(host: host.name, server: server.name, monitored: monitored.name) {
                try ExternalCommand.run(command)
            }
        } catch {
            remove()
            throw error
        }
    }

    /// The wiring, in order. Pure, so the plan is tested without a lab.
    package static func commands(host: String, server: String, monitored: String) -> [[String]] {
        [
            ["ip", "link", "add", "veth-host", "netns", host, "type", "veth", "peer", "name", "veth-server", "netns", server],
            ["ip", "-n", host, "link", "set", "lo", "up"],
            ["ip", "-n", server, "link", "set", "lo", "up"],
            ["ip", "-n", monitored, "link", "set", "lo", "up"],
            ["ip", "-n", host, "addr", "add", "\(hostIPv4)/\(ipv4PrefixLength)", "dev", "veth-host"],
            ["ip", "-n", server, "addr", "add", "\(serverIPv4)/\(ipv4PrefixLength)", "dev", "veth-server"],
            ["ip", "-n", host, "-6", "addr", "add", "\(hostIPv6)/\(ipv6PrefixLength)", "dev", "veth-host", "nodad"],
            ["ip", "-n", server, "-6", "addr", "add", "\(serverIPv6)/\(ipv6PrefixLength)", "dev", "veth-server", "nodad"],
            ["ip", "-n", host, "link", "set", "veth-host", "up"],
            ["ip", "-n", server, "link", "set", "veth-server", "up"],
        ]
    }

    /// Removes every namespace of the lab (their interfaces go with them). Safe to call twice.
    /// Returns what could not be removed, and why (the next lab's sweep removes it).
    @discardableResult
    package func remove() -> [CommandError] {
        [monitored, server, host].compactMap { $0.delete() }
    }

    deinit { remove() }
}
