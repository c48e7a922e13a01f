import Shared

/// How every document and screen says a flow's proxy target: `"proxy"` in JSON, a line in text.
enum ProxyTargetWording {
    /// `"proxy": {"protocol", "host", "port"} | null` — the protocol a `ProxyProtocol` identifier,
    /// the host as sent. With `text`, the sentence a screen shows beside them.
    static func write(_ target: ProxyTarget?, withText: Bool = false, to out: inout JSONWriter) {
        guard let target else {
            out.key("proxy")
            out.null()
            return
        }
        out.beginObject("proxy")
        out.string("protocol", target.proxyProtocol.rawValue)
        out.string("host", target.host)
        out.number("port", Int(target.port))
        if withText { out.string("text", text(target)) }
        out.endObject()
    }

    /// "a SOCKS5 request to example.com:443"; an IPv6 host in brackets (RFC 3986 §3.2.2).
    static func text(_ target: ProxyTarget) -> String {
        let host = target.host.contains(":") ? "[\(target.host)]" : target.host
        let article = target.proxyProtocol == .httpConnect ? "an" : "a"
        return "\(article) \(target.proxyProtocol.displayName) request to \(host):\(target.port)"
    }
}
