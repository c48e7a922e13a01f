import Foundation
import Testing
import Shared
@testable import PacketTunnel

@Suite struct TCPFlowScannersTests {
    typealias V = TLSVectors

    func feed(_ scanners: inout TCPFlowScanners, client: [Data] = [], server: [Data] = []) -> [FlowFact] {
        var facts: [FlowFact] = []
        for chunk in client { facts += chunk.withUnsafeBytes { scanners.client($0) } }
        for chunk in server { facts += chunk.withUnsafeBytes { scanners.server($0) } }
        return facts
    }

    @Test func aTLSClientStreamYieldsItsOpeningNameAndOfferOnceWhateverTheChunking() {
        for size in [1, 7, 64, V.clientHelloRecord.count] {
            var scanners = TCPFlowScanners()
            let facts = feed(&scanners, client: V.chunks(V.clientHelloRecord, size: size))
            #expect(facts.count == 3, "chunks of \(size)")
            #expect(facts.first == .streamOpening(.tlsHandshake))
            #expect(facts.contains(.serverName("example.com")))
            #expect(facts.contains(.clientOffer(ClientTLSOffer(versions: .listed([.tls13, .tls12]),
                                                               applicationProtocols: ["h2", "http/1.1"]))))
            #expect(scanners.isClientSettled)
            #expect(feed(&scanners, client: [Data(V.clientHelloRecord)]).isEmpty)
        }
    }

    @Test func aTLS13ServerAnswerSettlesTheServerSideWithoutACertificateReading() {
        var scanners = TCPFlowScanners()
        let facts = feed(&scanners, server: V.chunks(V.serverHello13Record, size: 5))
        let negotiated = NegotiatedTLS(version: .tls13, cipherSuite: TLSCipherSuite(rawValue: 0x1301),
                                       fromHelloRetryRequest: false, source: .serverHello)
        #expect(facts == [.serverAnswer(.negotiated(negotiated))])
        #expect(scanners.isServerSettled)
    }

    @Test func aTLS12FlightInOneChunkGivesTheAnswerAndTheChainFromTheSameBytes() throws {
        var scanners = TCPFlowScanners()
        // ServerHello, then a Certificate message with no certificate inside the same record
        // stream: the chain scanner starts from what followed the hello in this very chunk.
        let flight = V.records(V.serverHello12Message + V.serverHelloDone, size: 16_384)
        let facts = feed(&scanners, server: [Data(flight)])
        #expect(facts.count == 2)
        #expect(facts.last == .serverCertificates(.notSent(.continuedWithoutCertificate)))
        #expect(scanners.isServerSettled)
    }

    @Test func anAlertInsteadOfAServerHelloIsARefusal() {
        var scanners = TCPFlowScanners()
        #expect(feed(&scanners, server: [Data(V.handshakeFailureAlert)]) == [.serverAnswer(.refused(alert: 0x28))])
    }

    @Test func anHTTPRequestOpensAPlaintextStreamAndNamesNothing() {
        var scanners = TCPFlowScanners()
        let facts = feed(&scanners, client: [Data("GET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8)])
        #expect(facts == [.streamOpening(.httpRequest)])
        #expect(scanners.isClientSettled)
    }
}
