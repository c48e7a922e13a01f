import Testing
import Shared

/// The TLS version check, row by row (audit.md § TLS version).
@Suite struct TLSVersionAssessmentTests {
    typealias F = AuditFindingsFixtures

    static func assess(_ flow: StoredFlow, minimum: TLSProtocolVersion = F.minimum) -> TLSVersionAssessment {
        TLSVersionAssessment(of: flow, minimum: minimum)
    }

    @Test("a ServerHello older than the minimum is weak, read from the ServerHello")
    func serverHelloBelowMinimum() {
        let result = Self.assess(F.flow(1, status: .encrypted, server: F.negotiated(.tls10, .serverHello)))
        #expect(result == .weak(TLSVersionObservation(version: .tls10, basis: .serverHello)))
        #expect(result.outcome == .finding(.weakTLSVersion(TLSVersionObservation(version: .tls10, basis: .serverHello))))
    }

    @Test("a ServerHello at the minimum or newer is acceptable, whatever the client offered", arguments: [
        F.listed(.tls10, .tls13), ClientTLSOffer(versions: .upTo(.tls11)), nil,
    ])
    func serverHelloAtMinimum(offer: ClientTLSOffer?) {
        for version in [TLSProtocolVersion.tls12, .tls13] {
            let result = Self.assess(F.flow(1, status: .encrypted, server: F.negotiated(version, .serverHello), offer: offer))
            #expect(result == .acceptable(TLSVersionObservation(version: version, basis: .serverHello)))
            #expect(result.outcome == .satisfied)
        }
    }

    @Test("the tunnel's own connection older than the minimum is weak, read from that connection")
    func upstreamBelowMinimum() {
        let result = Self.assess(F.flow(1, status: .inspected, server: F.negotiated(.tls11, .upstreamConnection),
                                        offer: F.listed(.tls13, .tls12)))
        #expect(result == .weak(TLSVersionObservation(version: .tls11, basis: .upstreamConnection)))
    }

    @Test("the tunnel's connection at the minimum, and an app that listed only published versions none older, is acceptable")
    func upstreamWithListedOffer() {
        let result = Self.assess(F.flow(1, status: .inspected, server: F.negotiated(.tls13, .upstreamConnection),
                                        offer: F.listed(.tls13, .tls12)))
        #expect(result == .acceptable(TLSVersionObservation(version: .tls13, basis: .upstreamConnection)))
    }

    @Test("the tunnel's connection at the minimum leaves the app's negotiation unobserved otherwise, and says why", arguments: [
        (nil, ClientOfferGap.offerNotRead),
        (ClientTLSOffer(versions: .upTo(.tls13)), .versionsNotListed),
        (F.listed(), .nothingListed),
        (F.listed(.tls13, TLSProtocolVersion(rawValue: 0x7F1C)), .unpublishedVersionOffered),
        (F.listed(.tls13, .tls12, .tls11), .olderVersionOffered),
    ])
    func upstreamWithoutAppNegotiation(offer: ClientTLSOffer?, gap: ClientOfferGap) {
        let result = Self.assess(F.flow(1, status: .inspected, server: F.negotiated(.tls12, .upstreamConnection), offer: offer))
        #expect(result == .notAssessed(.appNegotiationNotObserved(gap)))
        #expect(result.outcome == .unassessed(.appNegotiationNotObserved(gap)))
    }

    @Test("a version that is not one of the five published is unrecognised, from either source", arguments: [
        TLSAnswerSource.serverHello, .upstreamConnection,
    ])
    func unpublishedVersion(source: TLSAnswerSource) {
        for raw: UInt16 in [0x7F1C, 0x0200, 0x0305, 0xFEFD] {
            let result = Self.assess(F.flow(1, status: .encrypted, server: F.negotiated(TLSProtocolVersion(rawValue: raw), source)))
            #expect(result == .notAssessed(.unrecognisedVersion))
        }
    }

    @Test("an alert instead of a ServerHello is a refusal: no version was negotiated")
    func serverRefused() {
        #expect(Self.assess(F.flow(1, status: .encrypted, server: .refused(alert: 70))) == .notAssessed(.serverRefused))
    }

    @Test("QUIC v1 or v2 read from the server is TLS 1.3, read from the QUIC version", arguments: [QUICVersion.v1, .v2])
    func quicFromServer(version: QUICVersion) {
        let flow = F.flow(1, proto: .udp, status: .encrypted, quic: QUICVersionReading(version: version, source: .server))
        let observation = TLSVersionObservation(version: .tls13, basis: .quic)
        #expect(Self.assess(flow) == .acceptable(observation))
        #expect(Self.assess(flow, minimum: .tls13) == .acceptable(observation))
    }

    @Test("a QUIC version read only from the client was only proposed")
    func quicOnlyFromClient() {
        for version in [QUICVersion.v1, .v2, QUICVersion(rawValue: 0xFF00_001D)] {
            let flow = F.flow(1, proto: .udp, status: .encrypted, quic: QUICVersionReading(version: version, source: .client))
            #expect(Self.assess(flow) == .notAssessed(.quicVersionOnlyProposed))
        }
    }

    @Test("a QUIC version not known to carry TLS 1.3 is unrecognised")
    func unrecognisedQUICVersion() {
        for raw: UInt32 in [0xFF00_001D, 0x0A0A_0A0A, 0] {
            let flow = F.flow(1, proto: .udp, status: .encrypted, quic: QUICVersionReading(version: QUICVersion(rawValue: raw), source: .server))
            #expect(Self.assess(flow) == .notAssessed(.unrecognisedQUICVersion))
        }
    }

    @Test("no server reading on a flow showing TLS (a status other than plaintext, or a ClientHello read) is an answer not read")
    func serverAnswerNotRead() {
        let rows = [
            F.flow(1, status: .encrypted), F.flow(2, status: .inspected), F.flow(3, status: .notInspectable),
            F.flow(4, status: .inspectionFailed), F.flow(5, port: 8443, offer: F.listed(.tls13)),
            F.flow(6, port: 8443, opening: .tlsHandshake),
            // A leaf handshake is the tunnel's, never the server's answer.
            F.flow(7, status: .inspected, server: F.negotiated(.tls13, .tunnelLeaf)),
        ]
        for flow in rows { #expect(Self.assess(flow) == .notAssessed(.serverAnswerNotRead), "flow \(flow.id)") }
    }

    @Test("no reading and no sign of TLS or QUIC is not applicable, on any protocol")
    func notApplicable() {
        for flow in [F.flow(1, port: 80), F.flow(2, port: 80, opening: .httpRequest), F.flow(3, proto: .udp, port: 53),
                     F.flow(4, proto: .icmp, port: 0), F.flow(5, port: 22, opening: .unrecognised)] {
            #expect(Self.assess(flow) == .notApplicable)
            #expect(Self.assess(flow).outcome == .notApplicable)
        }
    }

    @Test("only published versions are ordered, and only a published one can be the minimum")
    func publishedOrder() {
        #expect(TLSProtocolVersion.ssl30.isOlder(than: .tls10) && TLSProtocolVersion.tls12.isOlder(than: .tls13))
        #expect(!TLSProtocolVersion.tls13.isOlder(than: .tls12) && !TLSProtocolVersion.tls12.isOlder(than: .tls12))
        let draft = TLSProtocolVersion(rawValue: 0x7F1C)
        #expect(!draft.isOlder(than: .tls13) && !TLSProtocolVersion.tls13.isOlder(than: draft) && !TLSProtocolVersion(rawValue: 0x0200).isOlder(than: .ssl30))
        #expect(FindingsPolicy(minimumTLSVersion: .tls12)?.minimumTLSVersion == .tls12)
        #expect(FindingsPolicy(minimumTLSVersion: .ssl30) != nil)
        #expect(FindingsPolicy(minimumTLSVersion: draft) == nil && FindingsPolicy(minimumTLSVersion: TLSProtocolVersion(rawValue: 0x0305)) == nil)
    }

    @Test("the gaps' identifiers are stable")
    func identifiers() {
        #expect(TLSVersionGap.appNegotiationNotObserved(.offerNotRead).identifier == "appNegotiationNotObserved")
        #expect([TLSVersionGap.unrecognisedVersion, .serverRefused, .quicVersionOnlyProposed, .unrecognisedQUICVersion,
                 .serverAnswerNotRead].map(\.identifier)
            == ["unrecognisedVersion", "serverRefused", "quicVersionOnlyProposed", "unrecognisedQUICVersion", "serverAnswerNotRead"])
        #expect(ClientOfferGap.allCases.map(\.identifier)
            == ["offerNotRead", "versionsNotListed", "nothingListed", "unpublishedVersionOffered", "olderVersionOffered"])
        #expect(TLSVersionBasis.allCases.map(\.rawValue) == ["serverHello", "upstreamConnection", "quic"])
    }
}
