import Testing
import Shared
@testable import App

@Suite struct HandshakeTextMemoTests {
    @Test func aRememberedTextIsTheReportsOwnWordsForThatHandshakeAlsoAfterTheMemoStartsOver() {
        var memo = HandshakeTextMemo()
        // More different offers than the memo keeps, each asked twice: every text must be its own.
        for round in 0..<2 {
            for index in 0..<(HandshakeTextMemo.limit + 8) {
                let offer = ClientTLSOffer(versions: .listed([.tls13, .tls12]), applicationProtocols: ["p\(index)"])
                #expect(memo.text(offer) == AnalysisReport.text(offer), "round \(round), offer \(index)")
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
            #expect(memo.text(answer) == AnalysisReport.text(answer))
        }
    }
}
