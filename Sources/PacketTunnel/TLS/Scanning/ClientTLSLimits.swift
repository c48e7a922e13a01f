import Shared

/// What a client's ClientHello lets a server choose: the bounds inspection's upstream leg must stay
/// within, so that the real server is never offered what the client itself would refuse. Read with
/// the offer, from the same hello; GREASE (RFC 8701) and signalling values removed. Not stored:
/// it decides the upstream leg and is then done with.
package struct ClientTLSLimits: Sendable, Equatable {
    package var versions: OfferedTLSVersions
    /// `cipher_suites` in the client's order (RFC 8446 §4.1.2), without TLS_EMPTY_RENEGOTIATION_INFO_SCSV
    /// (RFC 5746 §3.3) and TLS_FALLBACK_SCSV (RFC 7507 §2), which are signals, not suites.
    package var cipherSuites: [UInt16]
    /// `supported_groups` (RFC 8446 §4.2.7); nil when the hello had none.
    package var groups: [UInt16]?
    /// `signature_algorithms` (RFC 8446 §4.2.3); nil when the hello had none.
    package var signatureAlgorithms: [UInt16]?

    package init(versions: OfferedTLSVersions, cipherSuites: [UInt16], groups: [UInt16]? = nil,
                 signatureAlgorithms: [UInt16]? = nil) {
        self.versions = versions
        self.cipherSuites = cipherSuites
        self.groups = groups
        self.signatureAlgorithms = signatureAlgorithms
    }

    /// The signalling cipher suite values: never offered upstream as suites.
    static let signallingSuites: Set<UInt16> = [0x00FF, 0x5600]
}
