/// The `flows` columns that hold what was learnt about a flow (its names and both sides' TLS and
/// QUIC facts), in the order the store binds and reads them. Every one is NULL when unknown.
enum FlowFactColumn: String, CaseIterable {
    case sni
    case dnsName = "dns_name"
    /// Other candidates, most recent first, space-separated; NULL when none competed.
    case dnsOtherNames = "dns_other_names"
    case tlsVersion = "tls_version"
    case tlsCipherSuite = "tls_cipher_suite"
    /// 1 when the reading came from a HelloRetryRequest; NULL without a version.
    case tlsHelloRetry = "tls_hello_retry"
    /// The alert that refused the handshake; NULL whenever a version is set.
    case tlsAlert = "tls_alert"
    /// 1 for `upstreamConnection`; 0 (or NULL, in rows older than the column) for `serverHello`.
    case tlsUpstream = "tls_upstream"
    /// The cleartext ServerHello's JA3S string and its MD5 (`ServerHelloFingerprints`); set
    /// together, only beside a version.
    case tlsJA3SFull = "tls_ja3s_full"
    case tlsJA3S = "tls_ja3s"
    /// Decimal wire values, space-separated; '' for an empty list. Exactly one of this and
    /// `tls_offered_legacy` is set when there is an offer.
    case tlsOfferedVersions = "tls_offered_versions"
    case tlsOfferedLegacy = "tls_offered_legacy"
    case tlsOfferedALPN = "tls_offered_alpn"
    case tlsOfferedALPNOmitted = "tls_offered_alpn_omitted"
    case tlsOfferedECH = "tls_offered_ech"
    /// A server_name that is no host name, as sent (`ClientTLSOffer.serverNameAsSent`).
    case tlsOfferedServerNameAsSent = "tls_offered_sni_sent"
    /// The ClientHello's JA4, JA3 string and JA3 MD5 (`ClientHelloFingerprints`); set together,
    /// only beside an offer.
    case tlsJA4 = "tls_ja4"
    case tlsJA3Full = "tls_ja3_full"
    case tlsJA3 = "tls_ja3"
    /// The raw 4-byte version; set together with `quic_from_server`.
    case quicVersion = "quic_version"
    case quicFromServer = "quic_from_server"
    /// `CertificateChainState`; `tls_chain` is set exactly when it names a chain.
    case tlsChainState = "tls_chain_state"
    case tlsChain = "tls_chain"
    case streamOpening = "stream_opening"
    /// `InspectionReasonKind`'s raw value; `inspection_failure` is its detail (the column's name is
    /// from when it held only why a flow failed).
    case inspectionReason = "inspection_reason"
    case inspectionDetail = "inspection_failure"
    /// What the app and the tunnel's leaf negotiated (`FlowRecord.leafTLS`); set together.
    case leafTLSVersion = "tls_leaf_version"
    case leafTLSCipherSuite = "tls_leaf_cipher_suite"
    /// `TLSStreamEnding`.
    case serverEnding = "tls_server_ending"
    /// `ProgramAttribution`'s case (`ProgramAttributionState`); the program's facts are set
    /// exactly when it names one, `program_detail` exactly when it is unavailable.
    case programState = "program_state"
    case programPID = "program_pid"
    case programCommand = "program_command"
    case programExecutable = "program_executable"
    case programUID = "program_uid"
    case programUser = "program_user"
    case programDetail = "program_detail"
    /// 0 when the key's `endpointA` is the machine's end, 1 when `endpointB` is; NULL when not recorded.
    case localEnd = "local_end"
    /// A DNS flow's first question and its type; the reply's code, answer count and the answers
    /// read (addresses and CNAME targets, space-separated; '' for none) are set together, only
    /// beside a question.
    case dnsQuery = "dns_query"
    case dnsQueryType = "dns_query_type"
    case dnsReplyCode = "dns_reply_code"
    case dnsReplyCount = "dns_reply_count"
    case dnsReplyAnswers = "dns_reply_answers"
    /// `ProxyProtocol`'s raw value; the host as sent and the port are set with it.
    case proxyProtocol = "proxy_protocol"
    case proxyHost = "proxy_host"
    case proxyPort = "proxy_port"
    /// `ProxyTarget.hostName` of the host (NULL for an IP literal): not read back — the target is
    /// — but what the host order and groups read, so they follow the name the flow is shown by.
    case proxyName = "proxy_name"

    /// Facts are reported once: a record that does not know a group leaves the stored group alone,
    /// and a record that knows it replaces the whole group (so exclusive columns stay exclusive).
    /// `presence` are the columns at least one of which is set when the group is known.
    static let groups: [(presence: [FlowFactColumn], columns: [FlowFactColumn])] = [
        ([.sni], [.sni]),
        ([.dnsName], [.dnsName, .dnsOtherNames]),
        ([.tlsVersion, .tlsAlert], [.tlsVersion, .tlsCipherSuite, .tlsHelloRetry, .tlsAlert, .tlsUpstream, .tlsJA3SFull,
                                         .tlsJA3S]),
        ([.tlsOfferedVersions, .tlsOfferedLegacy],
         [.tlsOfferedVersions, .tlsOfferedLegacy, .tlsOfferedALPN, .tlsOfferedALPNOmitted, .tlsOfferedECH,
          .tlsOfferedServerNameAsSent, .tlsJA4, .tlsJA3Full, .tlsJA3]),
        ([.quicVersion], [.quicVersion, .quicFromServer]),
        ([.tlsChainState], [.tlsChainState, .tlsChain]),
        ([.streamOpening], [.streamOpening]),
        ([.inspectionReason], [.inspectionReason, .inspectionDetail]),
        ([.leafTLSVersion], [.leafTLSVersion, .leafTLSCipherSuite]),
        ([.serverEnding], [.serverEnding]),
        ([.programState], [.programState, .programPID, .programCommand, .programExecutable, .programUID, .programUser,
                           .programDetail]),
        ([.localEnd], [.localEnd]),
        ([.dnsQuery], [.dnsQuery, .dnsQueryType, .dnsReplyCode, .dnsReplyCount, .dnsReplyAnswers]),
        ([.proxyProtocol], [.proxyProtocol, .proxyHost, .proxyPort, .proxyName]),
    ]
}
