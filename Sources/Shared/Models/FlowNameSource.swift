/// Where the name a flow is shown by came from, as a person and a script read it: the TLS
/// server_name of a TCP connection (`sni`), the one a QUIC Initial's ClientHello carried (`quic`),
/// the target a proxy request named (`proxy`), the DNS answer for the server's address (`dns`),
/// or what a DNS flow asked about (`dnsQuery`). Raw values are the stable identifiers the JSON
/// outputs use.
package enum FlowNameSource: String, Sendable, Hashable, Codable, CaseIterable {
    case sni, quic, proxy, dns, dnsQuery

    /// The source of `name` on a flow of protocol `proto`: an announced name on UDP can only have
    /// come from a QUIC Initial.
    package init(_ name: FlowName, proto: IPProtocolNumber) {
        switch name.origin {
        case .sni: self = proto == .udp ? .quic : .sni
        case .proxy: self = .proxy
        case .dns: self = .dns
        case .dnsQuery: self = .dnsQuery
        }
    }

    /// How a person reads it beside the name.
    package var phrase: String {
        switch self {
        case .sni: "announced by the connection (TLS server name)"
        case .quic: "announced in a QUIC Initial"
        case .proxy: "named in a proxy request"
        case .dns: "from a DNS answer for its address"
        case .dnsQuery: "the name it asked DNS about"
        }
    }

    /// `phrase`, with the proxy protocol that named it when it is `proxy`.
    package func phrase(proxyProtocol: ProxyProtocol?) -> String {
        guard self == .proxy, let proxyProtocol else { return phrase }
        return "\(phrase) (\(proxyProtocol.displayName))"
    }
}
