/// The name DNS gave a flow's remote address when the flow began: an inference, never written
/// into `sni`.
package struct ResolvedFlowName: Sendable, Hashable, Codable {
    /// The name asked for, normalised (lowercase, no trailing dot).
    package var name: String
    /// Other live names of the same address, most recent first.
    package var otherNames: [String]

    package init(name: String, otherNames: [String] = []) {
        self.name = name
        self.otherNames = otherNames
    }
}

/// Where a flow's name came from. Derived from which field is set, never stored.
package enum FlowNameOrigin: String, Sendable, Hashable, Codable, CaseIterable {
    /// What the connection itself announced (TLS or QUIC server_name).
    case sni
    /// The target a proxy request carried in the clear (SOCKS, HTTP CONNECT), when it is a DNS name.
    case proxy
    /// What the device last asked DNS for when it got the address.
    case dns
    /// What a DNS flow itself asked about (`DNSExchange`): the name it looked up, not a name of
    /// the resolver it asked.
    case dnsQuery
}

/// The one name a flow is shown by. The connection's own word wins: its SNI, then the target a proxy
/// request named (the TLS inside a tunnel says it better, an IP literal names nothing), then a name
/// inferred from DNS, which may be one of several sharing an address.
package struct FlowName: Sendable, Hashable, Codable {
    package var text: String
    package var origin: FlowNameOrigin
    /// The resolved name's competitors; only a DNS-derived name has any.
    package var otherCandidates: [String]

    /// The SNI when it is non-empty (an empty one counts as absent), else the proxy target's host
    /// when it is a DNS name (`ProxyTarget.hostName`), else the name a DNS flow asked about, else
    /// the resolved name with its competitors, else nil — an unnamed flow, reported as such rather
    /// than omitted.
    package init?(sni: String?, proxyTarget: ProxyTarget? = nil, resolved: ResolvedFlowName?, dnsQuery: String? = nil) {
        if let sni, !sni.isEmpty {
            self.init(text: sni, origin: .sni, otherCandidates: [])
        } else if let proxyName = proxyTarget?.hostName {
            self.init(text: proxyName, origin: .proxy, otherCandidates: [])
        } else if let dnsQuery, !dnsQuery.isEmpty {
            self.init(text: dnsQuery, origin: .dnsQuery, otherCandidates: [])
        } else if let resolved, !resolved.name.isEmpty {
            self.init(text: resolved.name, origin: .dns, otherCandidates: resolved.otherNames)
        } else {
            return nil
        }
    }

    private init(text: String, origin: FlowNameOrigin, otherCandidates: [String]) {
        self.text = text
        self.origin = origin
        self.otherCandidates = otherCandidates
    }
}
