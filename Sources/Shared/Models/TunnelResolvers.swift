/// Which of the host's name servers the tunnel can announce to the monitored namespace
/// (tunnel-provider spec, `dnsSettings`): the ones the namespace can reach through the tunnel.
///
/// Out: loopback (the namespace's own loopback is not the host's, so 127.0.0.53 would go
/// nowhere), IPv6 link-local (meaningless without a zone, which resolv.conf cannot carry here),
/// the unspecified address, and repeats. In: everything else, private and IPv4 link-local
/// included — the relay's sockets reach them from the host's namespace.
package enum TunnelResolvers {
    package static func announceable(from reported: [IPAddress]) -> [IPAddress] {
        var seen: Set<IPAddress> = []
        return reported.filter { address in
            guard !isLoopback(address), !isIPv6LinkLocal(address), !isUnspecified(address) else { return false }
            return seen.insert(address).inserted
        }
    }

    /// Resolver addresses from resolv.conf text, in order (`nameserver ADDRESS` lines; comments,
    /// other keywords and unparseable addresses — a zone suffix among them — ignored).
    package static func nameservers(inResolvConf text: String) -> [IPAddress] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2, fields[0] == "nameserver" else { return nil }
            return IPAddress(parsing: String(fields[1]))
        }
    }

    /// The resolv.conf the monitored namespace gets.
    package static func resolvConf(announcing servers: [IPAddress]) -> String {
        "# written by tunnelvision: the host's resolvers, reached through the tunnel\n"
            + servers.map { "nameserver \($0)\n" }.joined()
    }

    static func isLoopback(_ address: IPAddress) -> Bool {
        address.version == .v4 ? address.ipv4Value >> 24 == 127 : address == IPAddress(ipv6High: 0, low: 1)
    }

    static func isIPv6LinkLocal(_ address: IPAddress) -> Bool {
        address.version == .v6 && address.bytes[0] == 0xFE && address.bytes[1] & 0xC0 == 0x80
    }

    static func isUnspecified(_ address: IPAddress) -> Bool {
        address.version == .v4 ? address.ipv4Value == 0 : address == IPAddress(ipv6High: 0, low: 0)
    }
}
