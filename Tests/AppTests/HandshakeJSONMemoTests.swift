import Foundation
import Testing
import Shared
@testable import App

@Suite struct HandshakeJSONMemoTests {
    /// `[x, x]` written by the report's own writer, and through the memo (the second from memory).
    static func bothWays<Handshake>(_ handshake: Handshake, _ memo: inout HandshakeJSONMemo,
                                    direct: (Handshake, inout JSONWriter) -> Void,
                                    remembered: (inout HandshakeJSONMemo, Handshake, inout JSONWriter) -> Void) -> (String, String) {
        var plain = JSONWriter()
        plain.beginArray()
        direct(handshake, &plain)
        direct(handshake, &plain)
        plain.endArray()
        var viaMemo = JSONWriter()
        viaMemo.beginArray()
        remembered(&memo, handshake, &viaMemo)
        remembered(&memo, handshake, &viaMemo)
        viaMemo.endArray()
        return (viaMemo.writer.string, plain.writer.string)
    }

    @Test func aRememberedOfferOrAnswerIsTheReportsOwnObjectAlsoAfterTheMemoStartsOver() {
        var memo = HandshakeJSONMemo()
        // More different offers than the memo keeps, each asked twice: every object must be its own.
        for round in 0..<2 {
            for index in 0..<(HandshakeJSONMemo.limit + 8) {
                let offer = ClientTLSOffer(versions: .listed([.tls13, .tls12]), applicationProtocols: ["p\(index)"])
                let (remembered, direct) = Self.bothWays(offer, &memo, direct: AnalysisReport.write) { $0.write($1, to: &$2) }
                #expect(remembered == direct, "round \(round), offer \(index)")
            }
        }
        let answers: [ServerTLSAnswer] = [
            .negotiated(NegotiatedTLS(version: .tls13, cipherSuite: TLSCipherSuite(rawValue: 0x1301), fromHelloRetryRequest: true,
                                      source: .upstreamConnection)),
            .negotiated(NegotiatedTLS(version: .tls12, cipherSuite: TLSCipherSuite(rawValue: 0xC02F), fromHelloRetryRequest: false,
                                      source: .upstreamConnection)),
            .refused(alert: 40),
        ]
        for answer in answers + answers {
            let (remembered, direct) = Self.bothWays(answer, &memo, direct: AnalysisReport.write) { $0.write($1, to: &$2) }
            #expect(remembered == direct)
        }
    }

    @Test func aRememberedChainIsWrittenAsTheReportWritesItAlsoAfterTheMemoStartsOver() {
        var memo = HandshakeJSONMemo()
        let chains = (0..<(HandshakeJSONMemo.limit + 8)).map { index in
            ServerCertificateVisibility.presented(ServerCertificateChain(certificates: [
                ServerCertificate(subject: CertificateName(text: "CN=host-\(index).test, O=\"Quoted\""),
                                  issuer: CertificateName(text: "CN=CA"), notAfter: Date(timeIntervalSince1970: 1_900_000_000 + Double(index))),
            ], isComplete: index % 2 == 0))
        }
        for round in 0..<2 {
            for (index, visibility) in (chains + [.encryptedInHandshake, .notSent(.resumedSession)]).enumerated() {
                let (remembered, direct) = Self.bothWays(visibility, &memo, direct: AnalysisReport.write) { $0.write($1, to: &$2) }
                #expect(remembered == direct, "round \(round), chain \(index)")
            }
        }
    }
}
