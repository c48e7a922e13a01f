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
            #expect(facts.count == 4, "chunks of \(size)")
            #expect(facts.first == .streamOpening(.tlsHandshake))
            #expect(facts.contains(.serverName("example.com")))
            #expect(facts.contains(.clientOffer(ClientTLSOffer(versions: .listed([.tls13, .tls12]),
                                                               applicationProtocols: ["h2", "http/1.1"]))))
            // Its fingerprints follow the offer: TLS 1.3 over TCP, a server name, ALPN h2.
            guard case .clientFingerprints(let prints) = facts.last else { Issue.record("no fingerprints: \(facts)"); continue }
            #expect(prints.ja4.hasPrefix("t13d") && prints.ja4.split(separator: "_").first?.hasSuffix("h2") == true)
            #expect(prints.ja3Full.hasPrefix("771,") && prints.ja3 == JA3.hash(prints.ja3Full))
            #expect(scanners.isClientSettled)
            #expect(feed(&scanners, client: [Data(V.clientHelloRecord)]).isEmpty)
        }
    }

    @Test func aTLS13ServerAnswerSettlesTheServerSideWithoutACertificateReading() {
        var scanners = TCPFlowScanners()
        let facts = feed(&scanners, server: V.chunks(V.serverHello13Record, size: 5))
        let negotiated = NegotiatedTLS(version: .tls13, cipherSuite: TLSCipherSuite(rawValue: 0x1301),
                                       fromHelloRetryRequest: false, source: .serverHello)
        // JA3S: legacy_version 0x0303, TLS_AES_128_GCM_SHA256, supported_versions then key_share.
        #expect(facts == [.serverAnswer(.negotiated(negotiated)), .serverFingerprints(Self.ja3s13)])
        #expect(scanners.isServerSettled)
    }

    @Test func aTLS12FlightInOneChunkGivesTheAnswerAndTheChainFromTheSameBytes() throws {
        var scanners = TCPFlowScanners()
        // ServerHello, then a Certificate message with no certificate inside the same record
        // stream: the chain scanner starts from what followed the hello in this very chunk.
        let flight = V.records(V.serverHello12Message + V.serverHelloDone, size: 16_384)
        let facts = feed(&scanners, server: [Data(flight)])
        #expect(facts.count == 3)
        #expect(facts.last == .serverCertificates(.notSent(.continuedWithoutCertificate)))
        #expect(scanners.isServerSettled)
    }

    static let ja3s13 = ServerHelloFingerprints(ja3sFull: "771,4865,43-51", ja3s: JA3.hash("771,4865,43-51"))

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

    /// A handshake message of exactly `bodyBytes`, padded by an extension of its own (RFC 7685's
    /// padding, 21) after `extensions`.
    static func padded(_ body: ([[UInt8]]) -> [UInt8], to bodyBytes: Int, after extensions: [[UInt8]]) -> [UInt8] {
        let unpadded = body(extensions + [V.ext(21, [])]).count
        return body(extensions + [V.ext(21, [UInt8](repeating: 0, count: bodyBytes - unpadded))])
    }

    @Test("the scanners settle within their reach even when the largest messages come one byte per record")
    func theScannersSettleWithinTheirReach() {
        let hello = Self.padded({ V.clientHelloBody(extensions: $0) }, to: ClientHelloScanner.Config().maxHelloBytes,
                                after: [V.serverName("reach.test")])
        let clientStream = V.records(V.handshake(1, hello), size: 1)
        var client = TCPFlowScanners()
        _ = feed(&client, client: [Data(clientStream[..<(clientStream.count - 1)])])
        #expect(!client.isClientSettled)                                   // the hello's last byte is still due
        _ = feed(&client, client: [Data(clientStream[(clientStream.count - 1)...])])
        #expect(client.isClientSettled)
        #expect(clientStream.count <= TCPFlowScanners.clientStreamReach)

        // A ServerHello of the largest size, then a Certificate message longer than the chain read.
        let serverHello = Self.padded({ V.serverHelloBody(extensions: $0) }, to: ServerHelloScanner.maxHelloBytes,
                                      after: [V.ext(0xFF01, [0x00])])
        let certificate = V.certificateMessage([[UInt8](repeating: 0x30, count: 40_000)])
        let serverStream = V.records(V.handshake(2, serverHello) + certificate, size: 1)
        let chainRead = 6 * (4 + serverHello.count + 4 + ServerCertificateScanner.Config().maxChainBytes)
        var server = TCPFlowScanners()
        _ = feed(&server, server: [Data(serverStream[..<(chainRead - 1)])])
        #expect(!server.isServerSettled)
        _ = feed(&server, server: [Data(serverStream[(chainRead - 1)..<chainRead])])
        #expect(server.isServerSettled)
        #expect(chainRead <= TCPFlowScanners.serverStreamReach)
    }
}
