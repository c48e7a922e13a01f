import Testing
import Shared
@testable import PacketTunnel

@Suite struct FlowTableFactsTests {
    let offer = ClientTLSOffer(versions: .listed([.tls13, .tls12]), applicationProtocols: ["h2"])
    let answer = ServerTLSAnswer.negotiated(NegotiatedTLS(version: .tls13, cipherSuite: TLSCipherSuite(rawValue: 0x1301),
                                                          fromHelloRetryRequest: false, source: .serverHello))

    @Test func factsAboutAGoneFlowAreDroppedAndDoNotBringItBack() {
        var table = FlowTable()
        table.observe(FlowFixture.https, now: 1)
        table.observe(FlowFixture.tcp(.inbound, to: FlowFixture.remote(port: 443), flags: [.rst]), now: 2)
        #expect(table.expireIdle(now: 2 + table.config.closingLinger).isEmpty)    // its linger over: closed

        table.setTLSStatus(.inspected, for: FlowFixture.https.key, sni: "example.org")
        table.setSNI("example.org", for: FlowFixture.https.key)
        table.setClientTLS(offer, for: FlowFixture.https.key)
        table.setServerTLS(answer, for: FlowFixture.https.key)
        table.setStreamOpening(.tlsHandshake, for: FlowFixture.https.key)
        #expect(table.count == 0 && table.record(for: FlowFixture.https.key) == nil)
        #expect(table.drainClosed().first?.record.sni == nil)
    }

    @Test("a hello's fingerprints follow its offer and answer; a later answer drops the JA3S of the one before")
    func fingerprintsFollowTheirHellos() {
        var table = FlowTable()
        let key = FlowFixture.https.key
        table.observe(FlowFixture.https, now: 1)
        let client = ClientHelloFingerprints(ja4: "t13d0101h2_000000000000_000000000000", ja3Full: "771,4865,16,,", ja3: "ab")
        let server = ServerHelloFingerprints(ja3sFull: "771,4865,43", ja3s: "cd")
        for fact in [FlowFact.clientOffer(offer), .clientFingerprints(client), .serverAnswer(answer), .serverFingerprints(server)] {
            table.apply(fact, for: key)
        }
        #expect(table.record(for: key)?.clientFingerprints == client && table.record(for: key)?.serverFingerprints == server)
        let upstream = NegotiatedTLS(version: .tls13, cipherSuite: TLSCipherSuite(rawValue: 0x1302), fromHelloRetryRequest: false,
                                     source: .upstreamConnection)
        table.apply(.serverAnswer(.negotiated(upstream)), for: key)
        #expect(table.record(for: key)?.serverFingerprints == nil && table.record(for: key)?.clientFingerprints == client)
    }

    @Test func theTLSVerdictSetsTheStatusAndTheSNIOnlyWhenGiven() {
        var table = FlowTable()
        table.observe(FlowFixture.https, now: 1)
        table.setTLSStatus(.inspected, for: FlowFixture.https.key, sni: "example.org")
        table.setTLSStatus(.notInspectable, for: FlowFixture.https.key)
        #expect(table.record(for: FlowFixture.https.key)?.tlsStatus == .notInspectable)
        #expect(table.record(for: FlowFixture.https.key)?.sni == "example.org")
    }

    @Test func knowingWhomAFlowCallsOrWhatItsTLSSaidLeavesItsStatusAlone() {
        var table = FlowTable()
        table.observe(FlowFixture.http, now: 1)
        table.setSNI("example.org", for: FlowFixture.http.key)
        table.setClientTLS(offer, for: FlowFixture.http.key)
        table.setServerTLS(answer, for: FlowFixture.http.key)

        let record = table.record(for: FlowFixture.http.key)
        #expect(record?.tlsStatus == .plaintext)
        #expect(record?.sni == "example.org" && record?.clientTLS == offer && record?.serverTLS == answer)
        #expect(record?.name?.text == "example.org")
    }

    @Test func aHelloInsideAProxysTunnelRaisesAPlaintextFlowAsATLSOpeningWould() {
        var table = FlowTable()
        table.observe(FlowFixture.http, now: 1)
        table.apply(.streamOpening(.httpRequest), for: FlowFixture.http.key)
        table.apply(.proxyTarget(ProxyTarget(proxyProtocol: .httpConnect, host: "example.org", port: 443)), for: FlowFixture.http.key)
        #expect(table.record(for: FlowFixture.http.key)?.tlsStatus == .plaintext)       // a target is no TLS
        table.apply(.clientOffer(offer), for: FlowFixture.http.key)
        let record = table.record(for: FlowFixture.http.key)
        #expect(record?.tlsStatus == .encrypted && record?.name?.text == "example.org" && record?.name?.origin == .proxy)
    }

    @Test func factsAreNotActivityAndMoveNeitherRecencyNorLastSeen() {
        var table = FlowTable(config: .init(maxFlows: 2, whenFull: .endLeastRecent))
        table.observe(FlowFixture.https, now: 1)
        table.observe(FlowFixture.http, now: 2)
        table.setSNI("example.org", for: FlowFixture.https.key)
        table.setStreamOpening(.tlsHandshake, for: FlowFixture.https.key)
        #expect(table.record(for: FlowFixture.https.key)?.lastSeen == 1)

        table.observe(FlowFixture.quic, now: 3)
        #expect(table.drainClosed().map(\.record.key) == [FlowFixture.https.key])
    }

    @Test func aTLSStreamOpeningRaisesPlaintextAndIsStoredOnce() {
        var table = FlowTable()
        table.observe(FlowFixture.http, now: 1)
        table.setStreamOpening(.tlsHandshake, for: FlowFixture.http.key)
        table.setStreamOpening(.httpRequest, for: FlowFixture.http.key)
        #expect(table.record(for: FlowFixture.http.key)?.streamOpening == .tlsHandshake)
        #expect(table.record(for: FlowFixture.http.key)?.tlsStatus == .encrypted)
    }

    @Test("an unrecognised opening is raised to the switch to TLS seen later, and the flow to encrypted; no other is",
          arguments: StreamOpening.allCases.filter(\.upgradesToTLS))
    func aSwitchToTLSRaisesAnUnrecognisedOpening(upgrade: StreamOpening) {
        var table = FlowTable()
        table.observe(FlowFixture.http, now: 1)
        table.observe(FlowFixture.https, now: 1)
        table.setStreamOpening(.unrecognised, for: FlowFixture.http.key)
        table.apply(.streamOpening(upgrade), for: FlowFixture.http.key)
        #expect(table.record(for: FlowFixture.http.key)?.streamOpening == upgrade)
        #expect(table.record(for: FlowFixture.http.key)?.tlsStatus == .encrypted)
        table.setStreamOpening(.unrecognised, for: FlowFixture.http.key)
        #expect(table.record(for: FlowFixture.http.key)?.streamOpening == upgrade)
        table.setStreamOpening(.httpRequest, for: FlowFixture.https.key)
        table.setStreamOpening(upgrade, for: FlowFixture.https.key)
        #expect(table.record(for: FlowFixture.https.key)?.streamOpening == .httpRequest)
    }

    @Test func anHTTPOrUnrecognisedOpeningClaimsNothingAboutTheStatus() {
        var table = FlowTable()
        table.observe(FlowFixture.https, now: 1)
        table.observe(FlowFixture.http, now: 1)
        table.setStreamOpening(.httpRequest, for: FlowFixture.https.key)
        table.setStreamOpening(.unrecognised, for: FlowFixture.http.key)
        #expect(table.record(for: FlowFixture.https.key)?.tlsStatus == .encrypted)
        #expect(table.record(for: FlowFixture.http.key)?.tlsStatus == .plaintext)
    }

    @Test(arguments: [TLSInspectionStatus.inspected, .notInspectable])
    func readingsNeverLowerAStatus(status: TLSInspectionStatus) {
        var table = FlowTable()
        table.observe(FlowFixture.https, now: 1)
        table.observe(FlowFixture.quic, now: 1)
        table.setTLSStatus(status, for: FlowFixture.https.key)
        table.setTLSStatus(status, for: FlowFixture.quic.key)
        table.setStreamOpening(.tlsHandshake, for: FlowFixture.https.key)
        let flow = table.observe(FlowFixture.quic, now: 2, quic: QUICVersionReading(version: .v1, source: .server))
        #expect(table.record(for: FlowFixture.https.key)?.tlsStatus == status)
        #expect(flow.record.tlsStatus == status)
    }

    @Test(arguments: [QUICVersion.v1, .v2])
    func aKnownQUICVersionShowsAUDPFlowIsEncrypted(version: QUICVersion) {
        var table = FlowTable()
        let flow = table.observe(FlowFixture.quic, now: 1, quic: QUICVersionReading(version: version, source: .client))
        #expect(flow.record.tlsStatus == .encrypted && flow.record.quic?.version == version)
    }

    @Test func anUnknownQUICVersionIsKeptButClaimsNothing() {
        var table = FlowTable()
        let reading = QUICVersionReading(version: QUICVersion(rawValue: 0x1a2a_3a4a), source: .client)
        let flow = table.observe(FlowFixture.quic, now: 1, quic: reading)
        #expect(flow.record.quic == reading && flow.record.tlsStatus == .plaintext)
    }

    @Test func theServersQUICReadingHasTheLastWord() {
        var table = FlowTable()
        let client = QUICVersionReading(version: .v1, source: .client)
        let server = QUICVersionReading(version: .v2, source: .server)
        #expect(table.observe(FlowFixture.quic, now: 1, quic: client).record.quic == client)
        #expect(table.observe(FlowFixture.quic, now: 2, quic: server).record.quic == server)
        #expect(table.observe(FlowFixture.quic, now: 3, quic: client).record.quic == server)
        #expect(table.observe(FlowFixture.quic, now: 4).record.quic == server)
        let again = QUICVersionReading(version: .v1, source: .server)
        #expect(table.observe(FlowFixture.quic, now: 5, quic: again).record.quic == again)
    }
}
