/// The ports whose service the tunnel recognises by number alone (IANA's service name and port
/// number registry), written once: naming, timeouts and the relay's counters all read them here.
package enum WellKnownPort {
    /// DNS over UDP and TCP (RFC 1035 §4.2): answers are read to name flows; queries are counted.
    package static let dns: UInt16 = 53
    /// HTTPS, and HTTP/3 over QUIC (RFC 9114 §3.1): the flows TLS and QUIC naming look at first.
    package static let https: UInt16 = 443
}
