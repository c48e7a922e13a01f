/// Where a client asked a proxy to connect it, as its request said in the clear: the host text as
/// sent (a DNS name, or an IP literal written out), and the port.
package struct ProxyTarget: Sendable, Hashable, Codable {
    package var proxyProtocol: ProxyProtocol
    /// The host as sent: a SOCKS domain name or an HTTP authority's host (an IPv6 literal without
    /// its brackets), or the address a SOCKS request carried, written out.
    package var host: String
    package var port: UInt16

    package init(proxyProtocol: ProxyProtocol, host: String, port: UInt16) {
        self.proxyProtocol = proxyProtocol
        self.host = host
        self.port = port
    }

    /// The host as a DNS name, lowercased, when it is one (`HostNameRule`); nil for an IP literal
    /// or anything else, which names nothing but is still kept and shown as the target.
    package var hostName: String? {
        var host = host
        return host.withUTF8 { HostNameRule.hostName(from: UnsafeRawBufferPointer($0)) }
    }
}
