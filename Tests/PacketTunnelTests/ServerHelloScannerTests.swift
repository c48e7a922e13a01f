import Foundation
import Shared
import Testing
@testable import PacketTunnel

@Suite struct ServerHelloScannerTests {
    typealias V = TLSVectors

    private func scan(_ chunks: [Data]) -> [ServerHelloScanner.Outcome] {
        var scanner = ServerHelloScanner()
        return chunks.map { scanner.scan($0) }
    }

    private func outcome(_ bytes: [UInt8]) -> ServerHelloScanner.Outcome { scan([Data(bytes)])[0] }

    private func negotiated(_ version: TLSProtocolVersion, _ suite: UInt16, retry: Bool = false) -> ServerHelloScanner.Outcome {
        .found(NegotiatedTLS(version: version, cipherSuite: TLSCipherSuite(rawValue: suite),
                             fromHelloRetryRequest: retry, source: .serverHello))
    }

    private static let tls13 = NegotiatedTLS(version: .tls13, cipherSuite: TLSCipherSuite(rawValue: 0x1301),
                                             fromHelloRetryRequest: false, source: .serverHello)

    // MARK: what the hello says

    @Test("the golden TLS 1.3 ServerHello: version from supported_versions, its suite")
    func golden13() {
        #expect(outcome(V.serverHello13Record) == .found(Self.tls13))
    }

    @Test("a TLS 1.2 hello: legacy_version, with an extensions block and without one")
    func legacyVersion() {
        #expect(outcome(V.record(V.serverHello12Message)) == negotiated(.tls12, 0xC02F))
        #expect(outcome(V.record(V.handshake(2, V.serverHelloBody(legacyVersion: 0x0301, cipherSuite: 0x002F))))
                == negotiated(.tls10, 0x002F))
        #expect(outcome(V.record(V.handshake(2, V.serverHelloBody(extensions: [])))) == negotiated(.tls12, 0xC02F))
    }

    @Test("an unpublished version and an unknown suite are kept raw")
    func rawCodePoints() {
        let body = V.serverHelloBody(cipherSuite: 0xABCD, extensions: [V.ext(43, [0x7F, 0x1C])])
        #expect(outcome(V.record(V.handshake(2, body))) == negotiated(TLSProtocolVersion(rawValue: 0x7F1C), 0xABCD))
    }

    @Test("a HelloRetryRequest is marked; a random one bit away is a plain hello")
    func helloRetryRequest() {
        let retry = V.serverHelloBody(random: V.helloRetryRequestRandom, cipherSuite: 0x1302,
                                      extensions: [V.ext(43, [0x03, 0x04]), V.ext(51, [0x00, 0x17])])
        #expect(outcome(V.record(V.handshake(2, retry))) == negotiated(.tls13, 0x1302, retry: true))
        for bit in [0, 7, 255] {
            var random = V.helloRetryRequestRandom
            random[bit / 8] ^= 1 << (bit % 8)
            let near = V.serverHelloBody(random: random, cipherSuite: 0x1302, extensions: [V.ext(43, [0x03, 0x04])])
            #expect(outcome(V.record(V.handshake(2, near))) == negotiated(.tls13, 0x1302), "bit \(bit)")
        }
    }

    // MARK: however it arrives

    @Test("every split in two, and byte by byte")
    func everyBoundary() {
        for index in 1..<V.serverHello13Record.count {
            #expect(scan(V.split(V.serverHello13Record, at: index)) == [.needMoreBytes, .found(Self.tls13)], "split at \(index)")
        }
        let bytes = scan(V.chunks(V.serverHello13Record, size: 1))
        #expect(bytes.dropLast().allSatisfy { $0 == .needMoreBytes } && bytes.last == .found(Self.tls13))
    }

    @Test("a hello fragmented across records, and the TLS 1.2 record that carries the certificate too")
    func recordsSplitAndCoalesced() {
        let message = Array(V.serverHello13Record[5...])
        for size in [1, 3, 4, 5, 30] {
            #expect(outcome(V.records(message, size: size)) == .found(Self.tls13), "records of \(size)")
        }
        let flight = V.record(V.serverHello12Message + V.certificateMessage([[0x30, 0x00]]) + V.serverHelloDone)
        #expect(outcome(flight) == negotiated(.tls12, 0xC02F))
    }

    // MARK: alerts

    @Test("an alert first is the server's refusal, whole or split at any byte")
    func alert() {
        #expect(outcome(V.handshakeFailureAlert) == .unavailable(.alert(description: 40)))
        for index in 1..<V.handshakeFailureAlert.count {
            #expect(scan(V.split(V.handshakeFailureAlert, at: index)) == [.needMoreBytes, .unavailable(.alert(description: 40))])
        }
        #expect(outcome([0x15, 0x03, 0x01, 0x00, 0x02, 0x02, 0x46]) == .unavailable(.alert(description: 70)))
    }

    /// Zeek's tls-early-alert.pcap: a server sends unrecognized_name as a warning, then its hello.
    @Test("a warning before the hello is not the server's last word; a warning close_notify is")
    func warningBeforeHello() {
        let unrecognizedName: [UInt8] = [0x15, 0x03, 0x03, 0x00, 0x02, 0x01, 0x70]
        let hello = V.record(V.serverHello12Message)
        #expect(outcome(unrecognizedName + hello) == negotiated(.tls12, 0xC02F))
        #expect(scan([Data(unrecognizedName), Data(hello)]) == [.needMoreBytes, negotiated(.tls12, 0xC02F)])
        let closeNotify: [UInt8] = [0x15, 0x03, 0x03, 0x00, 0x02, 0x01, 0x00]
        #expect(outcome(closeNotify + hello) == .unavailable(.alert(description: 0)))
        // The same description at level fatal refuses.
        #expect(outcome([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x70] + hello) == .unavailable(.alert(description: 0x70)))
    }

    /// Zeek's tls13draft16-*.pcap (Firefox 52 and Chrome 55 against draft servers): tshark and Zeek
    /// read 0x7F10 and the suite from the drafts' shorter hello.
    @Test("a TLS 1.3 draft's hello, without session id or compression method, gives its draft version and suite")
    func draftLayout() {
        let body: [UInt8] = [0x7F, 0x10] + [UInt8](repeating: 0x22, count: 32) + [0x13, 0x03]
            + V.vector(V.ext(51, [0x00, 0x1D, 0x00, 0x01, 0x42]), lengthBytes: 2)
        #expect(outcome(V.record(V.handshake(2, body))) == negotiated(TLSProtocolVersion(rawValue: 0x7F10), 0x1303))
        // Read with the final layout, the same bytes would have been malformed.
        #expect(outcome(V.record(V.handshake(2, [0x03, 0x03] + body.dropFirst(2)))) == .unavailable(.malformed))
    }

    @Test("an alert record of the wrong size is malformed")
    func alertWrongSize() {
        #expect(outcome([0x15, 0x03, 0x03, 0x00, 0x03, 0x02, 0x28, 0x00]) == .unavailable(.malformed))
        #expect(outcome([0x15, 0x03, 0x03, 0x00, 0x01, 0x02]) == .unavailable(.malformed))
    }

    @Test("an alert cutting a partial hello is still the server's last word")
    func alertCuttingHello() {
        let partial = V.record(Array(V.serverHello13Record[5..<30]))
        #expect(outcome(partial + V.handshakeFailureAlert) == .unavailable(.alert(description: 40)))
    }

    // MARK: not a ServerHello

    @Test("streams that are not TLS, and a ClientHello")
    func notServerHello() {
        #expect(outcome(Array("HTTP/1.1 200 OK\r\n".utf8)) == .unavailable(.notTLSHandshake))
        #expect(outcome(Array("SSH-2.0-x\r\n".utf8)) == .unavailable(.notTLSHandshake))
        #expect(outcome([0x17, 0x03, 0x03, 0x00, 0x05]) == .unavailable(.notTLSHandshake))
        #expect(outcome(V.changeCipherSpec) == .unavailable(.notTLSHandshake))
        #expect(outcome(V.clientHelloRecord) == .unavailable(.notServerHello))
        #expect(outcome(V.record(V.certificateMessage([[0x30, 0x00]]))) == .unavailable(.notServerHello))
    }

    // MARK: lying and truncated

    @Test("truncated bodies are malformed", arguments: [0, 1, 33, 34, 35, 36, 37])
    func truncated(_ length: Int) {
        let body = V.serverHelloBody()
        #expect(body.count == 38)
        #expect(outcome(V.record(V.handshake(2, Array(body[..<length])))) == .unavailable(.malformed))
    }

    @Test("lying vectors are malformed")
    func lying() {
        var longSession = V.serverHelloBody()
        longSession[34] = 33
        #expect(outcome(V.record(V.handshake(2, longSession + [UInt8](repeating: 0, count: 33)))) == .unavailable(.malformed))
        let base = V.serverHelloBody(extensions: [V.ext(43, [0x03, 0x04])])
        #expect(outcome(V.record(V.handshake(2, base + [0x00]))) == .unavailable(.malformed))            // after the block
        #expect(outcome(V.record(V.handshake(2, Array(base.dropLast())))) == .unavailable(.malformed))   // block overruns
        for broken in [V.ext(43, [0x03]), V.ext(43, [0x03, 0x04, 0x00]), [0x00, 0x2B, 0x00, 0x05, 0x03, 0x04]] {
            #expect(outcome(V.record(V.handshake(2, V.serverHelloBody(extensions: [broken])))) == .unavailable(.malformed))
        }
        let twice = V.serverHelloBody(extensions: [V.ext(43, [0x03, 0x04]), V.ext(43, [0x03, 0x04])])
        #expect(outcome(V.record(V.handshake(2, twice))) == .unavailable(.malformed))
        #expect(outcome(V.record(Array(V.serverHello13Record[5..<20])) + V.changeCipherSpec) == .unavailable(.malformed))
        #expect(outcome(V.record([])) == .unavailable(.malformed))
    }

    // MARK: the ceiling

    @Test("three ways past the ceiling: a hello declaring more, a record over 2^14, a length near 2^24")
    func ceiling() {
        #expect(outcome([0x16, 0x03, 0x03, 0x00, 0x04, 0x02, 0x00, 0x40, 0x01]) == .unavailable(.tooLarge))
        #expect(outcome([0x16, 0x03, 0x03, 0x40, 0x01]) == .unavailable(.tooLarge))
        #expect(outcome([0x16, 0x03, 0x03, 0x00, 0x04, 0x02, 0xFF, 0xFF, 0xFF]) == .unavailable(.tooLarge))
        #expect(outcome([0x16, 0x03, 0x03, 0x40, 0x00, 0x02, 0x00, 0x40, 0x00]) == .needMoreBytes)
    }

    // MARK: settled

    @Test("once settled, later bytes change nothing")
    func sticky() {
        var scanner = ServerHelloScanner()
        #expect(scanner.scan(Data(V.serverHello13Record)) == .found(Self.tls13))
        #expect(scanner.scan(Data(V.handshakeFailureAlert)) == .found(Self.tls13))
        var refused = ServerHelloScanner()
        #expect(refused.scan(Data(V.handshakeFailureAlert)) == .unavailable(.alert(description: 40)))
        #expect(refused.scan(Data(V.serverHello13Record)) == .unavailable(.alert(description: 40)))
        #expect(refused.remainder == nil)
    }

    // MARK: the remainder

    @Test("the remainder says whether TLS 1.3 was chosen")
    func remainderVersion() {
        var modern = ServerHelloScanner()
        _ = modern.scan(Data(V.serverHello13Record))
        #expect(modern.remainder?.choseTLS13 == true)
        var classic = ServerHelloScanner()
        _ = classic.scan(Data(V.record(V.serverHello12Message)))
        #expect(classic.remainder?.choseTLS13 == false)
        #expect(classic.remainder?.negotiated.version == .tls12)
        var retry = ServerHelloScanner()
        _ = retry.scan(Data(V.record(V.handshake(2, V.serverHelloBody(random: V.helloRetryRequestRandom)))))
        #expect(retry.remainder?.choseTLS13 == true)
        var waiting = ServerHelloScanner()
        _ = waiting.scan(Data(V.serverHello13Record.dropLast()))
        #expect(waiting.remainder == nil)
    }

    @Test("the remainder keeps exactly what followed the hello in its chunk, from a Data slice too")
    func remainderBytes() {
        let after: [UInt8] = [0x0B, 0x00, 0x00]
        let stream = [0xEE, 0xEE] + V.record(V.serverHello12Message + after)
        var scanner = ServerHelloScanner()
        let data = Data(stream)[2...]                               // a slice: indices start at 2
        #expect(scanner.scan(data) == negotiated(.tls12, 0xC02F))
        #expect(scanner.remainder.map { Array($0.pending) } == after)
        var raw = ServerHelloScanner()
        let outcome = stream.withUnsafeBytes { raw.scan(UnsafeRawBufferPointer(rebasing: $0[2...])) }
        #expect(outcome == negotiated(.tls12, 0xC02F))
        #expect(raw.remainder.map { Array($0.pending) } == after)
    }
}
