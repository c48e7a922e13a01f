/// The readings several checks share, stated once.
extension StoredFlow {
    /// Whether anything shows the flow is TLS or QUIC: a status other than plaintext (the port
    /// alone gives 443 `encrypted`), a TLS opening or a switch to TLS, an offer, an answer, a leaf handshake, or a
    /// QUIC version. Without any, the TLS version and pinning checks do not apply.
    var showsTLSOrQUIC: Bool {
        tlsStatus != .plaintext || streamOpening?.carriesTLS == true || clientTLS != nil || serverTLS != nil
            || leafTLS != nil || quic != nil
    }

    /// The server name the connection itself announced (SNI), normalised; nil when its name, if
    /// any, came from DNS.
    var announcedHost: String? {
        guard let name, name.origin == .sni else { return nil }
        return DomainPattern.normalised(host: name.text)
    }
}
