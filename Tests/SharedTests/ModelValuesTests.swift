import Foundation
import Testing
@testable import Shared

@Suite struct ModelValuesTests {
    @Test func quicServerReadingsHaveTheLastWordAndClientOnesOnlyReplaceClientOnes() {
        let client = QUICVersionReading(version: .v1, source: .client)
        let server = QUICVersionReading(version: .v2, source: .server)
        #expect(client.replaces(nil) && server.replaces(nil))
        #expect(server.replaces(client) && server.replaces(server))
        #expect(client.replaces(client))
        #expect(!client.replaces(server))
    }

    @Test func onlyQUICv1AndV2HaveKnownPacketProtection() {
        #expect(QUICVersion.v1.rawValue == 1 && QUICVersion.v2.rawValue == 0x6b33_43cf)
        #expect(QUICVersion.v1.hasKnownPacketProtection && QUICVersion.v2.hasKnownPacketProtection)
        #expect(!QUICVersion(rawValue: 0xff00_001d).hasKnownPacketProtection)   // draft-29
        #expect(!QUICVersion(rawValue: 0x0a0a_0a0a).hasKnownPacketProtection)   // greased
    }

    @Test func aTLSVersionIsNamedAPublishedOneByNameADraftByItsNumberAndAnythingElseByItsCode() {
        #expect(TLSProtocolVersion.tls12.name == "TLS 1.2" && TLSProtocolVersion.ssl30.name == "SSL 3.0")
        #expect(TLSProtocolVersion(rawValue: 0x7F10).name == "TLS 1.3 draft 16 (0x7f10)")
        #expect(TLSProtocolVersion(rawValue: 0x7F1C).name == "TLS 1.3 draft 28 (0x7f1c)")
        #expect(TLSProtocolVersion(rawValue: 0x7F00).name == "0x7f00" && TLSProtocolVersion(rawValue: 0x7F1D).name == "0x7f1d")
        #expect(TLSProtocolVersion(rawValue: 0x0A0A).name == "0x0a0a" && TLSProtocolVersion(rawValue: 0xFEFD).name == "0xfefd")
    }

    @Test func theFivePublishedTLSVersionsArePublishedAndNothingElseIs() {
        let published: [TLSProtocolVersion] = [.ssl30, .tls10, .tls11, .tls12, .tls13]
        #expect(published.map(\.rawValue) == [0x0300, 0x0301, 0x0302, 0x0303, 0x0304])
        #expect(published.allSatisfy { $0.isPublished })
        let draft = TLSProtocolVersion(rawValue: 0x7F1C), grease = TLSProtocolVersion(rawValue: 0x0A0A)
        for unpublished in [draft, grease, TLSProtocolVersion(rawValue: 0x0200), TLSProtocolVersion(rawValue: 0x0305)] {
            #expect(!unpublished.isPublished)
        }
    }

    @Test func persistedFactsRoundTripThroughJSON() throws {
        var record = FlowRecord(key: StoreFixtures.key(3, proto: .udp), firstSeen: 10, tlsStatus: .inspected)
        record.sni = "example.com"
        record.resolvedName = ResolvedFlowName(name: "example.com", otherNames: ["other.example"])
        record.serverTLS = .refused(alert: 70)
        record.clientTLS = ClientTLSOffer(versions: .upTo(.tls12), applicationProtocols: ["h2"], hasEncryptedClientHello: true)
        record.quic = QUICVersionReading(version: .v2, source: .server)
        record.serverCertificates = FlowStoreFactsTests.readings[0]
        record.streamOpening = .httpRequest
        record.program = .unavailable("no procfs")
        record.dnsExchange = DNSExchange(question: "example.com", questionType: 28)
        let decoded = try JSONDecoder().decode(FlowRecord.self, from: JSONEncoder().encode(record))
        #expect(decoded == record)
        let answer = ServerTLSAnswer.negotiated(NegotiatedTLS(version: .tls13, cipherSuite: TLSCipherSuite(rawValue: 0x1302),
                                                              fromHelloRetryRequest: false, source: .upstreamConnection))
        #expect(try JSONDecoder().decode(ServerTLSAnswer.self, from: JSONEncoder().encode(answer)) == answer)
        let offer = OfferedTLSVersions.listed([.tls13, TLSProtocolVersion(rawValue: 0x7F1C)])
        #expect(try JSONDecoder().decode(OfferedTLSVersions.self, from: JSONEncoder().encode(offer)) == offer)
    }
}
