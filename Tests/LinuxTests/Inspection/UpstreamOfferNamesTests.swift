import Foundation
import Linux
import PacketTunnel
import Shared
import Testing

/// The names the offer plan gives the TLS library are names it takes: every group and signature
/// scheme of the tables, offered to a real OpenSSL client leg, makes a session; and the suites the
/// factory reads from OpenSSL are what RFC 8446 and `openssl ciphers` say they are.
@Suite("The upstream offer's names, as OpenSSL takes them")
struct UpstreamOfferNamesTests {
    let factory: OpenSSLSessionFactory

    init() throws {
        factory = try OpenSSLSessionFactory(mint: { host in throw Loopback.Failure(description: "no leaf for \(host)") },
                                            upstreamTrust: .system)
    }

    func offer(groups: [String]? = nil, schemes: [String]? = nil) -> UpstreamOffer {
        UpstreamOffer(host: "a.test", applicationProtocols: [], minimumVersion: .tls12, maximumVersion: .tls13,
                      tls12CipherSuites: [0xC02F], tls13CipherSuites: [0x1301], groups: groups, signatureAlgorithms: schemes)
    }

    @Test("every group name of the table is one OpenSSL accepts", arguments: UpstreamCapabilities.groupNames.values.sorted())
    func groupNames(name: String) throws {
        #expect(throws: Never.self) { _ = try factory.makeClient(offer(groups: [name])) }
    }

    @Test("every signature scheme name of the table is one OpenSSL accepts",
          arguments: UpstreamCapabilities.signatureAlgorithmNames.values.sorted())
    func schemeNames(name: String) throws {
        #expect(throws: Never.self) { _ = try factory.makeClient(offer(schemes: [name])) }
    }

    @Test("the factory's suites are OpenSSL's own, by their RFC code points, TLS 1.3's apart")
    func suites() throws {
        let codePoints = try OpenSSLCipherNames.codePoints()
        #expect(factory.capabilities.tls13CipherSuites.isSuperset(of: [0x1301, 0x1302, 0x1303]))
        #expect(factory.capabilities.tls12CipherSuites.contains(try #require(codePoints["ECDHE-ECDSA-AES128-GCM-SHA256"])))
        #expect(factory.capabilities.tls12CipherSuites.isDisjoint(with: factory.capabilities.tls13CipherSuites))
    }

    @Test("an offer OpenSSL cannot take is a session failure that names what it refused")
    func refusedName() {
        #expect(throws: TLSSessionFailure.self) { _ = try factory.makeClient(offer(groups: ["no-such-group"])) }
    }
}
