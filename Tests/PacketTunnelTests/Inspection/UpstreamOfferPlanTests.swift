import Shared
import Testing
@testable import PacketTunnel

/// The upstream offer never goes beyond the client's: each limit by itself, and what is said when
/// nothing the tunnel can offer lies inside them.
@Suite("The upstream leg's offer, inside the client's limits")
struct UpstreamOfferPlanTests {
    static let capabilities = UpstreamCapabilities(tls12CipherSuites: [0xC02B, 0xC02F, 0xC030], tls13CipherSuites: [0x1301, 0x1302, 0x1303])

    func plan(_ limits: ClientTLSLimits?, alpn: [String] = []) -> UpstreamOfferPlan.Result {
        UpstreamOfferPlan.plan(host: "a.test", applicationProtocols: alpn, limits: limits, capabilities: Self.capabilities)
    }

    @Test("a client offering both versions gets both, each with its own suites in the client's order")
    func bothVersions() {
        let limits = ClientTLSLimits(versions: .listed([.tls13, .tls12]), cipherSuites: [0x1302, 0xC030, 0x1301, 0xC02B, 0x009C])
        #expect(plan(limits, alpn: ["h2"]) == .offer(UpstreamOffer(
            host: "a.test", applicationProtocols: ["h2"], minimumVersion: .tls12, maximumVersion: .tls13,
            tls12CipherSuites: [0xC030, 0xC02B], tls13CipherSuites: [0x1302, 0x1301])))
    }

    @Test("a TLS 1.3-only client gets TLS 1.3 only; a TLS 1.2 ceiling gets TLS 1.2 only")
    func versionLimits() {
        guard case .offer(let only13) = plan(ClientTLSLimits(versions: .listed([.tls13]), cipherSuites: [0x1301, 0xC02F])) else {
            Issue.record("no offer")
            return
        }
        #expect(only13.minimumVersion == .tls13 && only13.maximumVersion == .tls13 && only13.tls12CipherSuites.isEmpty)
        guard case .offer(let upTo12) = plan(ClientTLSLimits(versions: .upTo(.tls12), cipherSuites: [0x1301, 0xC02F])) else {
            Issue.record("no offer")
            return
        }
        #expect(upTo12.minimumVersion == .tls12 && upTo12.maximumVersion == .tls12 && upTo12.tls13CipherSuites.isEmpty)
    }

    @Test("a version with none of its suites among the client's is not offered")
    func versionWithoutSuites() {
        guard case .offer(let offer) = plan(ClientTLSLimits(versions: .listed([.tls13, .tls12]), cipherSuites: [0xC02F])) else {
            Issue.record("no offer")
            return
        }
        #expect(offer.minimumVersion == .tls12 && offer.maximumVersion == .tls12)
    }

    @Test("nothing inside the client's limits: each way says why", arguments: [
        (ClientTLSLimits(versions: .upTo(.tls11), cipherSuites: [0xC02F]),
         "the client offers up to TLS 1.1; inspection speaks TLS 1.2 and 1.3 only"),
        (ClientTLSLimits(versions: .listed([.tls11, .tls10]), cipherSuites: [0xC02F]),
         "the client offers TLS 1.1, TLS 1.0; inspection speaks TLS 1.2 and 1.3 only"),
        (ClientTLSLimits(versions: .upTo(TLSProtocolVersion(rawValue: 0x7F1C)), cipherSuites: [0xC02F]),
         "the client offers up to TLS 1.3 draft 28 (0x7f1c); inspection speaks TLS 1.2 and 1.3 only"),
        (ClientTLSLimits(versions: .listed([.tls13, .tls12]), cipherSuites: [0x0005, 0x1305]),
         "none of the client's 2 cipher suites is one the tunnel's TLS has"),
        (ClientTLSLimits(versions: .listed([.tls13]), cipherSuites: [0x1301], groups: [0x11EC]),
         "none of the client's 1 key exchange groups is one the tunnel's TLS has"),
        (ClientTLSLimits(versions: .listed([.tls13]), cipherSuites: [0x1301], signatureAlgorithms: [0x0904]),
         "none of the client's 1 signature algorithms is one the tunnel's TLS has"),
    ])
    func nothingInside(limits: ClientTLSLimits, said: String) {
        #expect(plan(limits) == .outsideClientPolicy(said))
    }

    @Test("limits that could not be read are no limits to guess at: nothing is offered")
    func unreadLimits() {
        #expect(plan(nil) == .outsideClientPolicy("the client's hello could not be read whole, so its limits are not known"))
    }

    @Test("groups and signature schemes are named for the TLS library in the client's order; unknown ones left out; absent lists left to the library")
    func groupsAndSchemes() {
        let limits = ClientTLSLimits(versions: .listed([.tls13]), cipherSuites: [0x1301], groups: [0x11EC, 29, 23],
                                     signatureAlgorithms: [0x0804, 0x0905, 0x0403, 0x0203])
        guard case .offer(let offer) = plan(limits) else {
            Issue.record("no offer")
            return
        }
        #expect(offer.groups == ["x25519", "secp256r1"])
        #expect(offer.signatureAlgorithms == ["rsa_pss_rsae_sha256", "ecdsa_secp256r1_sha256", "ECDSA+SHA1"])
        guard case .offer(let bare) = plan(ClientTLSLimits(versions: .listed([.tls13]), cipherSuites: [0x1301])) else {
            Issue.record("no offer")
            return
        }
        #expect(bare.groups == nil && bare.signatureAlgorithms == nil)
    }
}
