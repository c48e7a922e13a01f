/// Which proxy protocol a client spoke at the start of its stream to name where it wanted to go.
/// Raw values are the stable identifiers the JSON outputs and the store use.
package enum ProxyProtocol: String, Sendable, Hashable, Codable, CaseIterable {
    /// SOCKS 4 (an IPv4 address only).
    case socks4
    /// SOCKS 4a: the 0.0.0.x address and a host name after the user id.
    case socks4a
    /// SOCKS 5 (RFC 1928).
    case socks5
    /// An HTTP `CONNECT` request (RFC 9110 §9.3.6).
    case httpConnect

    /// How a person reads it.
    package var displayName: String {
        switch self {
        case .socks4: "SOCKS4"
        case .socks4a: "SOCKS4a"
        case .socks5: "SOCKS5"
        case .httpConnect: "HTTP CONNECT"
        }
    }
}
