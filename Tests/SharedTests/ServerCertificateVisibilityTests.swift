import Foundation
import Testing
@testable import Shared

@Suite struct ServerCertificateVisibilityTests {
    private func answer(_ version: TLSProtocolVersion, source: TLSAnswerSource = .serverHello,
                        retry: Bool = false) -> ServerTLSAnswer {
        .negotiated(NegotiatedTLS(version: version, cipherSuite: TLSCipherSuite(rawValue: 0xC02F),
                                  fromHelloRetryRequest: retry, source: source))
    }

    private let chain = ServerCertificateChain(
        certificates: [ServerCertificate(subject: CertificateName(text: "CN=a.example"), issuer: CertificateName(text: "CN=CA"),
                                         notAfter: Date(timeIntervalSince1970: 0))],
        isComplete: true)

    @Test("a chain read from a TLS 1.2 handshake is presented")
    func presented() {
        #expect(ServerCertificateVisibility(answer: answer(.tls12), reading: .chain(chain)) == .presented(chain))
        #expect(ServerCertificateVisibility(answer: answer(.ssl30), reading: .chain(chain)) == .presented(chain))
    }

    @Test("a handshake without a certificate says why", arguments: ServerCertificateAbsence.allCases)
    func notSent(_ absence: ServerCertificateAbsence) {
        #expect(ServerCertificateVisibility(answer: answer(.tls11), reading: .notSent(absence)) == .notSent(absence))
    }

    @Test("TLS 1.3, its drafts, later versions and a HelloRetryRequest encrypt the certificates")
    func encrypted() {
        #expect(ServerCertificateVisibility(answer: answer(.tls13), reading: nil) == .encryptedInHandshake)
        #expect(ServerCertificateVisibility(answer: answer(TLSProtocolVersion(rawValue: 0x7F1C)), reading: nil) == .encryptedInHandshake)
        #expect(ServerCertificateVisibility(answer: answer(TLSProtocolVersion(rawValue: 0x0305)), reading: nil) == .encryptedInHandshake)
        #expect(ServerCertificateVisibility(answer: answer(.tls12, retry: true), reading: nil) == .encryptedInHandshake)
        // A reading that could not have been made does not override the version.
        #expect(ServerCertificateVisibility(answer: answer(.tls13), reading: .chain(chain)) == .encryptedInHandshake)
    }

    @Test("the upstream connection's answer means the device saw our certificate")
    func inspection() {
        #expect(ServerCertificateVisibility(answer: answer(.tls13, source: .upstreamConnection), reading: nil) == .replacedByInspection)
        #expect(ServerCertificateVisibility(answer: answer(.tls12, source: .upstreamConnection), reading: .chain(chain))
                == .replacedByInspection)
    }

    @Test("no answer, or a refusal: no negotiation")
    func noNegotiation() {
        #expect(ServerCertificateVisibility(answer: nil, reading: nil) == .noNegotiation)
        #expect(ServerCertificateVisibility(answer: .refused(alert: 40), reading: nil) == .noNegotiation)
        #expect(ServerCertificateVisibility(answer: nil, reading: .chain(chain)) == .noNegotiation)
    }

    @Test("TLS 1.2 negotiated and nothing read")
    func notRead() {
        #expect(ServerCertificateVisibility(answer: answer(.tls12), reading: nil) == .notRead)
        #expect(ServerCertificateVisibility(answer: answer(.tls10), reading: nil) == .notRead)
    }

    @Test("which versions send their certificates in the clear")
    func clearVersions() {
        func clear(_ raw: UInt16, retry: Bool = false) -> Bool {
            ServerCertificateVisibility.certificatesTravelInClear(
                NegotiatedTLS(version: TLSProtocolVersion(rawValue: raw), cipherSuite: TLSCipherSuite(rawValue: 0),
                              fromHelloRetryRequest: retry, source: .serverHello))
        }
        #expect([0x0300, 0x0301, 0x0302, 0x0303].allSatisfy { clear($0) })
        #expect(![0x0002, 0x02FF, 0x0304, 0x7F17, 0xFEFD, 0x0A0A].contains { clear($0) })
        #expect(!clear(0x0303, retry: true))
    }

    @Test("it round-trips through Codable")
    func codable() throws {
        for value: ServerCertificateVisibility in [.presented(chain), .notSent(.resumedSession), .encryptedInHandshake,
                                                   .replacedByInspection, .noNegotiation, .notRead] {
            let data = try JSONEncoder().encode(value)
            #expect(try JSONDecoder().decode(ServerCertificateVisibility.self, from: data) == value)
        }
    }
}
