import Shared

/// The iproute2 commands that make a namespace's only way out the tunnel: the TUN interface moved
/// into it with the tunnel's addresses, MTU and both default routes, and loopback up. Pure, so
/// the exact plan is tested without touching a namespace.
package enum TunnelNamespacePlan {
    /// Commands to run in order; `ip -n NAMESPACE …` forms apply inside the namespace.
    package static func commands(device: String, namespace: String, mtu: Int = TunnelAddressing.mtu) -> [[String]] {
        let inside = ["ip", "-n", namespace]
        return deviceCommands(device: device, namespace: namespace, mtu: mtu, ipv6: true) + [
            inside + ["link", "set", "lo", "up"],
            inside + ["route", "add", "default", "dev", device],
            inside + ["-6", "route", "add", "default", "dev", device],
        ]
    }

    /// The device alone: moved into `namespace`, up at `mtu`, with the tunnel's IPv4 address and,
    /// with `ipv6`, its IPv6 one — the source a program there picks for what leaves by the device
    /// (`run`'s namespace, and a routed target's, whose routes `RoutedPlan` makes).
    static func deviceCommands(device: String, namespace: String, mtu: Int = TunnelAddressing.mtu, ipv6: Bool) -> [[String]] {
        deviceCommands(device: device, movingTo: namespace, inside: ["ip", "-n", namespace], mtu: mtu, ipv6: ipv6)
    }

    /// The same for a namespace `ip` names by `destination` (a name, or a process ID whose
    /// namespace it is) and enters with `inside` (`ip -n NAME`, or nsenter's `ip` for a path).
    static func deviceCommands(device: String, movingTo destination: String, inside: [String],
                                      mtu: Int = TunnelAddressing.mtu, ipv6: Bool) -> [[String]] {
        [
            ["ip", "link", "set", device, "netns", destination],
            inside + ["link", "set", device, "mtu", "\(mtu)", "up"],
            inside + ["addr", "add", TunnelAddressing.ipv4CIDR, "dev", device],
        ] + (ipv6 ? [ipv6AddressCommand(device: device, inside: inside)] : [])
    }

    /// The device's IPv6 address, given when IPv6 is routed through it (at the start, or when
    /// a routed target gains an IPv6 default route later). nodad: duplicate-address detection
    /// would hold the address back for a second, and nothing else can be on a point-to-point link.
    static func ipv6AddressCommand(device: String, inside: [String]) -> [String] {
        inside + ["-6", "addr", "add", TunnelAddressing.ipv6CIDR, "dev", device, "nodad"]
    }

    /// Runs the plan; the first failing command is reported.
    package static func apply(device: String, namespace: String, mtu: Int = TunnelAddressing.mtu) throws(CommandError) {
        for command in commands(device: device, namespace: namespace, mtu: mtu) {
            try ExternalCommand.run(command)
        }
    }
}
