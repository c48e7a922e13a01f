import Shared

/// What inspection's upstream leg offers the real server for one flow: never more than the client
/// offered (its versions; its cipher suites, groups and signature algorithms where the tunnel's TLS
/// lets them be set), in the client's order, and only what the tunnel's TLS can do. So the server
/// can never agree with the tunnel on something the client would have refused — and when it cannot
/// agree within those limits, it refuses, and the client hears that refusal from it directly.
package struct UpstreamOffer: Sendable, Equatable {
    package var host: String
    /// ALPN, the client's list as it sent it.
    package var applicationProtocols: [String]
    package var minimumVersion: TLSProtocolVersion
    package var maximumVersion: TLSProtocolVersion
    /// TLS 1.2 cipher suites, the client's order; empty when 1.2 is not offered.
    package var tls12CipherSuites: [UInt16]
    /// TLS 1.3 cipher suites, the client's order; empty when 1.3 is not offered.
    package var tls13CipherSuites: [UInt16]
    /// Groups, as the TLS library names them, the client's order; nil leaves the library's own
    /// (the client sent no list, RFC 8422 §4: the server may then choose any).
    package var groups: [String]?
    /// Signature schemes, as RFC 8446 and the TLS library name them; nil leaves the library's own.
    package var signatureAlgorithms: [String]?

    package init(host: String, applicationProtocols: [String], minimumVersion: TLSProtocolVersion,
                 maximumVersion: TLSProtocolVersion, tls12CipherSuites: [UInt16], tls13CipherSuites: [UInt16],
                 groups: [String]? = nil, signatureAlgorithms: [String]? = nil) {
        self.host = host
        self.applicationProtocols = applicationProtocols
        self.minimumVersion = minimumVersion
        self.maximumVersion = maximumVersion
        self.tls12CipherSuites = tls12CipherSuites
        self.tls13CipherSuites = tls13CipherSuites
        self.groups = groups
        self.signatureAlgorithms = signatureAlgorithms
    }
}

/// What the tunnel's TLS client can offer, by code point: read from the TLS library once when the
/// tunnel starts (the suites it really has at its security level), the names from the registries.
package struct UpstreamCapabilities: Sendable, Equatable {
    package var tls12CipherSuites: Set<UInt16>
    package var tls13CipherSuites: Set<UInt16>

    package init(tls12CipherSuites: Set<UInt16>, tls13CipherSuites: Set<UInt16>) {
        self.tls12CipherSuites = tls12CipherSuites
        self.tls13CipherSuites = tls13CipherSuites
    }

    /// The versions inspection speaks on either leg, oldest first: TLS 1.2 and 1.3 only.
    package static let versions: [TLSProtocolVersion] = [.tls12, .tls13]

    /// IANA TLS Supported Groups, by the names OpenSSL accepts in a groups list (the registry's).
    package static let groupNames: [UInt16: String] = [
        23: "secp256r1", 24: "secp384r1", 25: "secp521r1", 29: "x25519", 30: "x448",
        256: "ffdhe2048", 257: "ffdhe3072", 258: "ffdhe4096", 259: "ffdhe6144", 260: "ffdhe8192",
    ]

    /// IANA TLS SignatureScheme, by RFC 8446 §4.2.3's names, which OpenSSL accepts in a sigalgs
    /// list — but for the legacy SHA-1 and SHA-224 schemes, which it takes only in its own
    /// `ALGORITHM+HASH` form. Schemes OpenSSL cannot be given are left out.
    package static let signatureAlgorithmNames: [UInt16: String] = [
        0x0401: "rsa_pkcs1_sha256", 0x0501: "rsa_pkcs1_sha384", 0x0601: "rsa_pkcs1_sha512",
        0x0403: "ecdsa_secp256r1_sha256", 0x0503: "ecdsa_secp384r1_sha384", 0x0603: "ecdsa_secp521r1_sha512",
        0x0804: "rsa_pss_rsae_sha256", 0x0805: "rsa_pss_rsae_sha384", 0x0806: "rsa_pss_rsae_sha512",
        0x0807: "ed25519", 0x0808: "ed448",
        0x0809: "rsa_pss_pss_sha256", 0x080A: "rsa_pss_pss_sha384", 0x080B: "rsa_pss_pss_sha512",
        0x0201: "RSA+SHA1", 0x0203: "ECDSA+SHA1", 0x0301: "RSA+SHA224", 0x0303: "ECDSA+SHA224",
    ]
}

/// The decision: the upstream offer inside the client's limits, or why there is none.
package enum UpstreamOfferPlan {
    package enum Result: Sendable, Equatable {
        case offer(UpstreamOffer)
        /// Nothing the tunnel can offer lies inside the client's limits: the flow is not inspected,
        /// and this says why (`InspectionReasonKind.clientTLSPolicy`'s detail).
        case outsideClientPolicy(String)
    }

    package static func plan(host: String, applicationProtocols: [String], limits: ClientTLSLimits?,
                             capabilities: UpstreamCapabilities) -> Result {
        guard let limits else {
            return .outsideClientPolicy("the client's hello could not be read whole, so its limits are not known")
        }
        var versions = allowedVersions(limits.versions)
        guard !versions.isEmpty else {
            return .outsideClientPolicy("the client offers \(describe(limits.versions)); inspection speaks TLS 1.2 and 1.3 only")
        }
        let tls12 = limits.cipherSuites.filter(capabilities.tls12CipherSuites.contains)
        let tls13 = limits.cipherSuites.filter(capabilities.tls13CipherSuites.contains)
        if tls12.isEmpty { versions.removeAll { $0 == .tls12 } }
        if tls13.isEmpty { versions.removeAll { $0 == .tls13 } }
        guard let minimum = versions.first, let maximum = versions.last else {
            return .outsideClientPolicy("none of the client's \(limits.cipherSuites.count) cipher suites is one the tunnel's TLS has")
        }
        var groups: [String]?
        if let offered = limits.groups {
            let known = offered.compactMap { UpstreamCapabilities.groupNames[$0] }
            guard !known.isEmpty else {
                return .outsideClientPolicy("none of the client's \(offered.count) key exchange groups is one the tunnel's TLS has")
            }
            groups = known
        }
        var signatureAlgorithms: [String]?
        if let offered = limits.signatureAlgorithms {
            let known = offered.compactMap { UpstreamCapabilities.signatureAlgorithmNames[$0] }
            guard !known.isEmpty else {
                return .outsideClientPolicy("none of the client's \(offered.count) signature algorithms is one the tunnel's TLS has")
            }
            signatureAlgorithms = known
        }
        return .offer(UpstreamOffer(host: host, applicationProtocols: applicationProtocols,
                                    minimumVersion: minimum, maximumVersion: maximum,
                                    tls12CipherSuites: versions.contains(.tls12) ? tls12 : [],
                                    tls13CipherSuites: versions.contains(.tls13) ? tls13 : [],
                                    groups: groups, signatureAlgorithms: signatureAlgorithms))
    }

    /// The versions inspection speaks that the client offered, oldest first. A `supported_versions`
    /// list is exact; a legacy version alone is a ceiling (RFC 8446 §4.2.1, D.2).
    static func allowedVersions(_ offered: OfferedTLSVersions) -> [TLSProtocolVersion] {
        switch offered {
        case .listed(let listed):
            return UpstreamCapabilities.versions.filter(listed.contains)
        case .upTo(let ceiling):
            guard ceiling.isPublished else { return [] }
            return UpstreamCapabilities.versions.filter { $0.rawValue <= ceiling.rawValue }
        }
    }

    private static func describe(_ offered: OfferedTLSVersions) -> String {
        switch offered {
        case .listed(let listed):
            listed.isEmpty ? "no version" : listed.map { $0.name }.joined(separator: ", ")
        case .upTo(let ceiling):
            "up to \(ceiling.name)"
        }
    }
}
