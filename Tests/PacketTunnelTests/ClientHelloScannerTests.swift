import Foundation
import Shared
import Testing
@testable import PacketTunnel

@Suite struct ClientHelloScannerTests {
    typealias V = TLSVectors

    private func scan(_ chunks: [Data], config: ClientHelloScanner.Config = .init(),
                      framing: ClientHelloScanner.Framing = .tlsRecords) -> [ClientHelloScanner.Outcome] {
        var scanner = ClientHelloScanner(config: config, framing: framing)
        return chunks.map { scanner.scan($0) }
    }

    private func outcome(_ bytes: [UInt8], config: ClientHelloScanner.Config = .init()) -> ClientHelloScanner.Outcome {
        scan([Data(bytes)], config: config)[0]
    }

    private func hello(_ extensions: [[UInt8]]?) -> ClientHelloScanner.Outcome {
        outcome(V.clientHello(extensions: extensions))
    }

    // MARK: the golden hello, however it arrives

    @Test("the golden ClientHello names example.com")
    func goldenHello() {
        #expect(outcome(V.clientHelloRecord) == .found("example.com"))
    }

    @Test("every split in two gives the same name, and only the second chunk decides")
    func everyChunkBoundary() {
        for index in 1..<V.clientHelloRecord.count {
            let outcomes = scan(V.split(V.clientHelloRecord, at: index))
            #expect(outcomes == [.needMoreBytes, .found("example.com")], "split at \(index)")
        }
    }

    @Test("fed byte by byte, it waits to the last byte")
    func byteByByte() {
        let outcomes = scan(V.chunks(V.clientHelloRecord, size: 1))
        #expect(outcomes.dropLast().allSatisfy { $0 == .needMoreBytes })
        #expect(outcomes.last == .found("example.com"))
    }

    @Test("a hello fragmented over records of any size is read, whole or byte by byte")
    func fragmentedAcrossRecords() {
        for size in [1, 2, 3, 4, 5, 17, 50, 97] {
            let stream = V.records(V.clientHelloMessage, size: size)
            #expect(outcome(stream) == .found("example.com"), "records of \(size)")
            #expect(scan(V.chunks(stream, size: 1)).last == .found("example.com"), "records of \(size), byte by byte")
        }
    }

    @Test("what follows the hello, in its record or the next, is not read")
    func coalescedAndFollowed() {
        let message = V.clientHelloMessage
        let sameRecord = V.record(message + [0xFF, 0xFF, 0xFF])
        #expect(outcome(sameRecord) == .found("example.com"))
        #expect(outcome(V.clientHelloRecord + V.changeCipherSpec + [0x17, 0x03]) == .found("example.com"))
    }

    @Test("a QUIC CRYPTO stream is read without a record layer, at every boundary")
    func handshakeMessageFraming() {
        let message = V.clientHelloMessage
        #expect(scan([Data(message)], framing: .handshakeMessages) == [.found("example.com")])
        for index in 1..<message.count {
            #expect(scan(V.split(message, at: index), framing: .handshakeMessages) == [.needMoreBytes, .found("example.com")])
        }
        #expect(scan([Data(V.serverHello13Record[5...])], framing: .handshakeMessages) == [.unavailable(.notClientHello)])
        // The record header is not expected there: 0x16 is read as a message type.
        #expect(scan([Data(V.clientHelloRecord)], framing: .handshakeMessages) == [.unavailable(.notClientHello)])
    }

    // MARK: no name to give

    @Test("without server_name, without extensions, with an empty list or extension: no server name")
    func noServerName() {
        #expect(hello([V.alpn("h2")]) == .unavailable(.noServerName))
        #expect(hello(nil) == .unavailable(.noServerName))
        #expect(hello([]) == .unavailable(.noServerName))
        #expect(hello([V.ext(0, [0x00, 0x00])]) == .unavailable(.noServerName))
        #expect(hello([V.ext(0, [])]) == .unavailable(.noServerName))
    }

    @Test("only the host_name entry counts, wherever it is in the list")
    func nameTypes() {
        let otherType: [UInt8] = [0x07, 0x00, 0x03, 0x61, 0x62, 0x63]                 // type 7, "abc"
        let host: [UInt8] = [0x00, 0x00, 0x05] + Array("a.org".utf8)
        #expect(hello([V.ext(0, V.vector(otherType + host, lengthBytes: 2))]) == .found("a.org"))
        #expect(hello([V.ext(0, V.vector(otherType, lengthBytes: 2))]) == .unavailable(.noServerName))
    }

    // MARK: not a ClientHello

    @Test("streams that are not TLS are refused at their first bytes")
    func notTLS() {
        #expect(scan([Data("GET / HTTP/1.1\r\n".utf8)]) == [.unavailable(.notTLSHandshake)])
        #expect(scan([Data("SSH-2.0-OpenSSH_9.2\r\n".utf8)]) == [.unavailable(.notTLSHandshake)])
        #expect(scan([Data([0x00])]) == [.unavailable(.notTLSHandshake)])
        #expect(scan([Data([0x16]), Data([0x02])]) == [.needMoreBytes, .unavailable(.notTLSHandshake)])  // SSLv2-ish major
        #expect(outcome([0x17, 0x03, 0x03, 0x00, 0x10]) == .unavailable(.notTLSHandshake))             // application data
        #expect(outcome(V.handshakeFailureAlert) == .unavailable(.notTLSHandshake))
        #expect(outcome(V.changeCipherSpec) == .unavailable(.notTLSHandshake))
    }

    @Test("a ServerHello, or any other first message, is not a ClientHello — decided at its header")
    func notClientHello() {
        #expect(outcome(V.serverHello13Record) == .unavailable(.notClientHello))
        #expect(outcome(Array(V.serverHello13Record[..<9])) == .unavailable(.notClientHello))
        #expect(outcome(V.record(V.handshake(11, [0, 0, 0]))) == .unavailable(.notClientHello))
    }

    // MARK: lying lengths

    @Test("lengths that lie inside the hello make it malformed")
    func lyingLengths() {
        var sessionTooLong = V.clientHelloBody(extensions: [V.serverName("a.com")])
        sessionTooLong[34] = 33                                                         // session id 33 > 32
        #expect(outcome(V.record(V.handshake(1, sessionTooLong + [UInt8](repeating: 0, count: 33)))) == .unavailable(.malformed))

        var suitesOverrun = V.clientHelloBody(extensions: nil)
        suitesOverrun[35...36] = [0x01, 0x00]                                           // 256 bytes of suites
        #expect(outcome(V.record(V.handshake(1, suitesOverrun))) == .unavailable(.malformed))

        var oddSuites = V.clientHelloBody(extensions: nil)
        oddSuites[35...36] = [0x00, 0x01]
        oddSuites.remove(at: 37)                                                        // one byte of suites
        #expect(outcome(V.record(V.handshake(1, oddSuites))) == .unavailable(.malformed))

        let base = V.clientHelloBody(extensions: [V.serverName("a.com")])
        #expect(outcome(V.record(V.handshake(1, base + [0x00]))) == .unavailable(.malformed))     // byte after the block
        #expect(outcome(V.record(V.handshake(1, Array(base.dropLast())))) == .unavailable(.malformed)) // block overruns

        // server_name's list shorter than its extension; a name longer than its list.
        #expect(hello([V.ext(0, [0x00, 0x03, 0x00, 0x00, 0x01, 0x61, 0x62])]) == .unavailable(.malformed))
        #expect(hello([V.ext(0, [0x00, 0x04, 0x00, 0x00, 0x05, 0x61])]) == .unavailable(.malformed))
    }

    @Test("a hello shorter than its fixed fields is malformed")
    func truncatedBody() {
        let body = V.clientHelloBody(extensions: nil)
        for length in [0, 1, 2, 33, 34, 35, 38, body.count - 1] {
            #expect(outcome(V.record(V.handshake(1, Array(body[..<length])))) == .unavailable(.malformed), "\(length) bytes")
        }
    }

    @Test("a message cut by another record type, and an empty handshake record, are malformed")
    func interleavedRecords() {
        let message = V.clientHelloMessage
        let cut = V.record(Array(message[..<20])) + V.changeCipherSpec
        #expect(outcome(cut) == .unavailable(.malformed))
        #expect(outcome(V.record(Array(message[..<20])) + V.handshakeFailureAlert) == .unavailable(.malformed))
        #expect(outcome(V.record(Array(message[..<2])) + [0x47, 0x45, 0x54]) == .unavailable(.malformed))
        #expect(outcome(V.record([])) == .unavailable(.malformed))
    }

    @Test("a repeated server_name trusts neither name")
    func repeatedServerName() {
        #expect(hello([V.serverName("a.com"), V.serverName("b.com")]) == .unavailable(.malformed))
    }

    // MARK: the ceiling

    @Test("a hello declaring more than the ceiling is refused from its header alone")
    func messageCeiling() {
        let header: [UInt8] = [0x16, 0x03, 0x01, 0x40, 0x00, 0x01, 0x00, 0x40, 0x01]  // 16 385 bytes declared
        #expect(outcome(header) == .unavailable(.tooLarge))
        let atCeiling: [UInt8] = [0x16, 0x03, 0x01, 0x40, 0x00, 0x01, 0x00, 0x40, 0x00] // 16 384: waits
        #expect(outcome(atCeiling) == .needMoreBytes)
        let small = ClientHelloScanner.Config(maxHelloBytes: 50)
        #expect(outcome(V.clientHelloRecord, config: small) == .unavailable(.tooLarge))
        #expect(outcome(V.clientHelloRecord, config: .init(maxHelloBytes: 94)) == .found("example.com"))
    }

    @Test("a handshake record over 2^14 bytes is too large; a hello over several records is not")
    func recordCeiling() {
        #expect(outcome([0x16, 0x03, 0x01, 0x40, 0x01]) == .unavailable(.tooLarge))
        let padding = V.ext(21, [UInt8](repeating: 0, count: 16_000))                   // RFC 7685 padding
        let big = V.handshake(1, V.clientHelloBody(extensions: [padding, V.serverName("big.example")]))
        #expect(big.count > 16_000)
        #expect(outcome(V.records(big, size: 1 << 14)) == .found("big.example"))
        #expect(outcome(V.records(big, size: 4000)) == .found("big.example"))
    }

    // MARK: the name's rule

    @Test("host names are validated, lowercased, and lose one trailing dot", arguments: [
        ("Example.COM", "example.com"), ("example.com.", "example.com"), ("_dmarc.example.org", "_dmarc.example.org"),
        ("xn--bcher-kva.example", "xn--bcher-kva.example"), ("123.example.com", "123.example.com"), ("localhost", "localhost"),
        ("a-b.c-d", "a-b.c-d"), (String(repeating: "a", count: 63) + ".com", String(repeating: "a", count: 63) + ".com"),
    ])
    func validNames(_ sent: String, _ read: String) {
        #expect(hello([V.serverName(sent)]) == .found(read))
    }

    @Test("names that are not host names are malformed", arguments: [
        "1.2.3.4", "10.0.0.1.", "[::1]", "::1", "example.123", "a..b", ".a", "a b", "exa$mple.com", "bücher.de",
        "", ".", "..", String(repeating: "a", count: 64) + ".com", "a\u{0}b",
    ])
    func invalidNames(_ sent: String) {
        #expect(hello([V.serverName(sent)]) == .unavailable(.malformed))
    }

    @Test("a server name that is no host name is kept as sent, every byte that is not printable ASCII escaped", arguments: [
        ("1.2.3.4", "1.2.3.4"), ("host.example:8443", "host.example:8443"), ("[::1]", "[::1]"),
        ("bücher.de", "b\\xc3\\xbccher.de"), ("a\u{0}b", "a\\x00b"), ("a\\b", "a\\\\b"), ("a b", "a b"),
    ])
    func keptAsSent(_ sent: String, _ kept: String) {
        var scanner = ClientHelloScanner()
        #expect(scanner.scan(Data(V.clientHello(extensions: [V.serverName(sent)]))) == .unavailable(.malformed))
        #expect(scanner.offer?.serverNameAsSent == kept)
    }

    @Test("a host name, an empty one, or a name cut past 255 bytes: only what is no host name is kept, and said cut")
    func keptOnlyWhenNoHostName() {
        func kept(_ name: String) -> String? {
            var scanner = ClientHelloScanner()
            _ = scanner.scan(Data(V.clientHello(extensions: [V.serverName(name)])))
            return scanner.offer?.serverNameAsSent
        }
        #expect(kept("example.com") == nil)
        #expect(kept("") == nil)
        let long = String(repeating: "1", count: 300)
        #expect(kept(long) == String(repeating: "1", count: 255) + "… (300 bytes)")
    }

    @Test("the 253-byte limit holds after the trailing dot is removed")
    func nameLength() {
        let label = String(repeating: "a", count: 63)
        let name253 = [label, label, label, String(repeating: "b", count: 61)].joined(separator: ".")
        #expect(name253.utf8.count == 253)
        #expect(hello([V.serverName(name253)]) == .found(name253))
        #expect(hello([V.serverName(name253 + ".")]) == .found(name253))
        #expect(hello([V.serverName(name253 + "b")]) == .unavailable(.malformed))
    }

    // MARK: settled

    @Test("once settled, later bytes change nothing")
    func sticky() {
        var scanner = ClientHelloScanner()
        #expect(scanner.scan(Data(V.clientHelloRecord)) == .found("example.com"))
        let offer = scanner.offer
        #expect(scanner.scan(Data(V.serverHello13Record)) == .found("example.com"))
        #expect(scanner.scan(Data()) == .found("example.com"))
        #expect(scanner.offer == offer)

        var refused = ClientHelloScanner()
        #expect(refused.scan(Data("GET".utf8)) == .unavailable(.notTLSHandshake))
        #expect(refused.scan(Data(V.clientHelloRecord)) == .unavailable(.notTLSHandshake))
        #expect(refused.offer == nil)
    }

    @Test("an empty chunk before any byte waits")
    func emptyChunk() {
        #expect(scan([Data(), Data(V.clientHelloRecord)]) == [.needMoreBytes, .found("example.com")])
    }
}
