import Testing
import Shared

/// The encryption check, row by row (audit.md § Encryption): cleartext only from what was observed.
@Suite struct EncryptionAssessmentTests {
    typealias F = AuditFindingsFixtures

    @Test("a stream that opened with an HTTP request is cleartext HTTP, on any port and with any status", arguments: [
        (UInt16(80), TLSInspectionStatus.plaintext), (443, .encrypted), (8080, .plaintext), (443, .inspected),
    ])
    func httpRequest(port: UInt16, status: TLSInspectionStatus) {
        let result = EncryptionAssessment(of: F.flow(1, port: port, status: status, opening: .httpRequest))
        #expect(result == .cleartext(.http))
        #expect(result.outcome == .finding(.cleartextTraffic(.http)))
    }

    @Test("TCP that opened with a TLS handshake, or carries any reading only TLS gives, is encrypted with TLS")
    func tlsOverTCP() {
        let rows = [
            F.flow(1, port: 8443, opening: .tlsHandshake),
            F.flow(2, port: 8443, offer: F.listed(.tls13)),
            F.flow(3, port: 8443, server: F.negotiated(.tls12, .serverHello)),
            F.flow(4, port: 8443, server: .refused(alert: 40)),
            F.flow(5, status: .inspected, leaf: NegotiatedTLS(version: .tls13, cipherSuite: TLSCipherSuite(rawValue: 0x1301),
                                                              fromHelloRetryRequest: false, source: .tunnelLeaf)),
            F.flow(6, status: .inspected), F.flow(7, status: .notInspectable), F.flow(8, status: .inspectionFailed),
        ]
        for flow in rows {
            #expect(EncryptionAssessment(of: flow) == .encrypted(.tls), "flow \(flow.id)")
            #expect(EncryptionAssessment(of: flow).outcome == .satisfied)
        }
    }

    @Test("a stream that switched to TLS after a plaintext exchange (STARTTLS) is encrypted with TLS",
          arguments: StreamOpening.allCases.filter(\.upgradesToTLS))
    func upgradedToTLS(opening: StreamOpening) {
        #expect(EncryptionAssessment(of: F.flow(1, port: 25, opening: opening)) == .encrypted(.tls))
    }

    @Test("TCP that opened with something else is unassessed: an unrecognised opening")
    func unrecognisedOpening() {
        for port: UInt16 in [22, 25, 443] {
            #expect(EncryptionAssessment(of: F.flow(1, port: port, opening: .unrecognised)) == .notAssessed(.unrecognisedOpening))
        }
    }

    @Test("TCP with no opening read and nothing else showing TLS is unassessed, on 443 too: a port is no reading")
    func openingNotRead() {
        for flow in [F.flow(1, port: 443, status: .encrypted), F.flow(2, port: 80), F.flow(3, port: 5222)] {
            #expect(EncryptionAssessment(of: flow) == .notAssessed(.openingNotRead))
            #expect(EncryptionAssessment(of: flow).outcome == .unassessed(.openingNotRead))
        }
    }

    @Test("UDP with QUIC v1 or v2 read from either end is encrypted with QUIC", arguments: [
        (QUICVersion.v1, QUICVersionSource.client), (.v1, .server), (.v2, .client), (.v2, .server),
    ])
    func quic(version: QUICVersion, source: QUICVersionSource) {
        let flow = F.flow(1, proto: .udp, status: .encrypted, quic: QUICVersionReading(version: version, source: source))
        #expect(EncryptionAssessment(of: flow) == .encrypted(.quic))
    }

    @Test("UDP with another QUIC version is unassessed: an unrecognised QUIC version")
    func otherQUICVersion() {
        let flow = F.flow(1, proto: .udp, status: .encrypted, quic: QUICVersionReading(version: QUICVersion(rawValue: 0xFF00_001D), source: .server))
        #expect(EncryptionAssessment(of: flow) == .notAssessed(.unrecognisedQUICVersion))
    }

    @Test("UDP with no QUIC reading is unassessed, DNS on port 53 included: it is no cleartext finding")
    func datagramsNotRead() {
        for flow in [F.flow(1, proto: .udp, port: 53), F.flow(2, proto: .udp, status: .encrypted), F.flow(3, proto: .udp, port: 123)] {
            #expect(EncryptionAssessment(of: flow) == .notAssessed(.datagramsNotRead))
        }
    }

    @Test("neither TCP nor UDP is not applicable")
    func notApplicable() {
        for proto in [IPProtocolNumber.icmp, .icmpv6, IPProtocolNumber(rawValue: 47), .other] {
            let result = EncryptionAssessment(of: F.flow(1, proto: proto, port: 0))
            #expect(result == .notApplicable)
            #expect(result.outcome == .notApplicable)
        }
    }

    @Test("the gaps' identifiers are stable")
    func identifiers() {
        #expect(EncryptionGap.allCases.map(\.identifier)
            == ["unrecognisedOpening", "openingNotRead", "unrecognisedQUICVersion", "datagramsNotRead"])
        #expect(EncryptedProtocol.allCases.map(\.rawValue) == ["tls", "quic"])
        #expect(CleartextProtocol.allCases.map(\.rawValue) == ["http"])
    }
}
