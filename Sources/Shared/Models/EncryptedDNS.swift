/// A flow that carries DNS the monitor cannot read, told by where it goes: DNS over TLS
/// (RFC 7858, TCP port 853), DNS over QUIC (RFC 9250, UDP port 853), or DNS over HTTPS (RFC 8484)
/// to a well-known public resolver's name — DoH is HTTPS like any other, so only the name tells.
/// Derived on reading from the key and the announced name; never stored.
package enum EncryptedDNS: String, Sendable, Hashable, CaseIterable {
    case dnsOverTLS = "dot"
    case dnsOverQUIC = "doq"
    case dnsOverHTTPS = "doh"

    /// The port DoT and DoQ use (RFC 7858 §3.1, RFC 9250 §4.1.1).
    package static let port: UInt16 = 853

    /// Names of public resolvers that answer DoH on them, as their operators publish them (Google
    /// Public DNS, Cloudflare 1.1.1.1 and the names browsers use for it, Quad9, OpenDNS, NextDNS,
    /// AdGuard, CleanBrowsing, Mullvad, Control D).
    static let knownResolverNames: Set<String> = [
        "dns.google", "dns.google.com", "cloudflare-dns.com", "one.one.one.one", "1dot1dot1dot1.cloudflare-dns.com",
        "mozilla.cloudflare-dns.com", "chrome.cloudflare-dns.com", "security.cloudflare-dns.com",
        "family.cloudflare-dns.com", "dns.quad9.net", "dns9.quad9.net", "dns10.quad9.net", "dns11.quad9.net",
        "doh.opendns.com", "doh.familyshield.opendns.com", "dns.nextdns.io", "dns.adguard-dns.com",
        "family.adguard-dns.com", "doh.cleanbrowsing.org", "dns.mullvad.net", "doh.mullvad.net",
        "freedns.controld.com",
    ]

    /// What `key` carries, given the name it announced; nil for anything else.
    package init?(key: FlowKey, announcedName: String?) {
        let ports = [key.endpointA.port, key.endpointB.port]
        if ports.contains(Self.port) {
            switch key.proto {
            case .tcp: self = .dnsOverTLS
            case .udp: self = .dnsOverQUIC
            default: return nil
            }
        } else if ports.contains(WellKnownPort.https), key.proto == .tcp || key.proto == .udp,
                  let name = announcedName?.lowercased(), Self.knownResolverNames.contains(name) {
            self = .dnsOverHTTPS
        } else {
            return nil
        }
    }

    /// How a person reads it.
    package var phrase: String {
        switch self {
        case .dnsOverTLS: "DNS over TLS: the lookups inside are encrypted"
        case .dnsOverQUIC: "DNS over QUIC: the lookups inside are encrypted"
        case .dnsOverHTTPS: "DNS over HTTPS to a public resolver: the lookups inside are encrypted"
        }
    }
}
