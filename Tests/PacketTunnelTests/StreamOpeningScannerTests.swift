import Foundation
import Shared
import Testing
@testable import PacketTunnel

@Suite struct StreamOpeningScannerTests {
    typealias V = TLSVectors

    private func scan(_ chunks: [Data], config: StreamOpeningScanner.Config = .init()) -> [StreamOpeningScanner.Outcome] {
        var scanner = StreamOpeningScanner(config: config)
        return chunks.map { scanner.scan($0) }
    }

    private func opening(_ bytes: [UInt8], config: StreamOpeningScanner.Config = .init()) -> StreamOpeningScanner.Outcome {
        scan([Data(bytes)], config: config)[0]
    }

    private func opening(_ text: String, config: StreamOpeningScanner.Config = .init()) -> StreamOpeningScanner.Outcome {
        opening(Array(text.utf8), config: config)
    }

    // MARK: TLS

    @Test("a ClientHello record on every published minor version; not on 0x0305")
    func clientHelloVersions() {
        for minor: UInt8 in 0...4 {
            #expect(opening([0x16, 0x03, minor, 0x00, 0x62, 0x01]) == .decided(.tlsHandshake), "0x030\(minor)")
        }
        #expect(opening([0x16, 0x03, 0x05, 0x00, 0x62, 0x01]) == .decided(.unrecognised))
        #expect(opening([0x16, 0x02, 0x00, 0x00, 0x62, 0x01]) == .decided(.unrecognised))
        #expect(opening(V.clientHelloRecord) == .decided(.tlsHandshake))
    }

    @Test("the record length at its limits")
    func recordLength() {
        #expect(opening([0x16, 0x03, 0x03, 0x48, 0x00, 0x01]) == .decided(.tlsHandshake))    // 2^14 + 2048
        #expect(opening([0x16, 0x03, 0x03, 0x48, 0x01, 0x01]) == .decided(.unrecognised))    // one more
        #expect(opening([0x16, 0x03, 0x03, 0x00, 0x01, 0x01]) == .decided(.tlsHandshake))    // one byte: the type
        #expect(opening([0x16, 0x03, 0x03, 0x00, 0x00, 0x01]) == .decided(.unrecognised))    // empty
    }

    @Test("records that are not a ClientHello")
    func otherRecords() {
        #expect(opening(V.serverHello13Record) == .decided(.unrecognised))
        #expect(opening(V.handshakeFailureAlert) == .decided(.unrecognised))
        #expect(opening(V.changeCipherSpec) == .decided(.unrecognised))
        #expect(opening([0x17, 0x03, 0x03, 0x00, 0x10, 0x01]) == .decided(.unrecognised))
    }

    @Test("a TLS record waits for its sixth byte")
    func tlsWaits() {
        let outcomes = scan(V.chunks(Array(V.clientHelloRecord[..<6]), size: 1))
        #expect(outcomes == [.needMoreBytes, .needMoreBytes, .needMoreBytes, .needMoreBytes, .needMoreBytes, .decided(.tlsHandshake)])
    }

    // MARK: HTTP

    @Test("request lines in their forms", arguments: [
        "GET / HTTP/1.1\r\n", "HEAD /index.html?q=1 HTTP/1.0\r\n", "POST /api HTTP/1.1\r\n", "PUT /x HTTP/1.1\r\n",
        "DELETE /x/1 HTTP/1.1\r\n", "TRACE / HTTP/1.1\r\n", "PATCH /x HTTP/1.1\r\n", "OPTIONS / HTTP/1.1\r\n",
        "GET http://example.com/a HTTP/1.1\r\n", "GET coap+tcp:x HTTP/1.1\r\n",
        "CONNECT example.com:443 HTTP/1.1\r\n", "CONNECT [2001:db8::1]:8443 HTTP/1.1\r\n", "CONNECT 10.0.0.1:80 HTTP/1.0\r\n",
        "OPTIONS * HTTP/1.1\r\n", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
    ])
    func requestLines(_ line: String) {
        #expect(opening(line + "Host: example.com\r\n") == .decided(.httpRequest))
    }

    @Test("nothing is decided before the end of the line")
    func waitsForLineEnd() {
        let line = Array("GET / HTTP/1.1\r\n".utf8)
        let outcomes = scan(V.chunks(line, size: 1))
        #expect(outcomes.dropLast().allSatisfy { $0 == .needMoreBytes })
        #expect(outcomes.last == .decided(.httpRequest))
    }

    @Test("things that only look like a request line", arguments: [
        "get / HTTP/1.1\r\n",                 // methods are case-sensitive
        "GETS / HTTP/1.1\r\n",                // unknown method
        "GET / HTTP/2.0\r\n",                 // only PRI speaks 2.0 here
        "GET / HTTP/1.2\r\n",
        "GET /\r\n",                          // HTTP/0.9
        "GET  / HTTP/1.1\r\n",                // two spaces
        "GET / HTTP/1.1\n",                   // bare LF
        "GET / HTTP/1.1 \r\n",                // trailing space
        "GET / HTTP/1.1\rX",                  // CR without LF
        "GET * HTTP/1.1\r\n",                 // asterisk-form outside OPTIONS
        "GET foo HTTP/1.1\r\n",               // a scheme without a colon
        "GET /a\tb HTTP/1.1\r\n",             // a control byte in the target
        "GET /caf\u{E9} HTTP/1.1\r\n",        // a byte beyond ASCII
        "CONNECT example.com HTTP/1.1\r\n",   // no port
        "CONNECT example.com:https HTTP/1.1\r\n",
        "CONNECT /x HTTP/1.1\r\n",
        "PRI * HTTP/1.1\r\n",
        "PRI / HTTP/2.0\r\n",
        "OPTIONS ** HTTP/1.1\r\n",
        " GET / HTTP/1.1\r\n",
    ])
    func lookalikes(_ text: String) {
        #expect(opening(text) == .decided(.unrecognised))
    }

    @Test("other protocols are refused as soon as they cannot be either", arguments: [
        ("SSH-2.0-OpenSSH_9.2\r\n", 1), ("EHLO mail.example\r\n", 1), ("\u{0}\u{0}\u{0}", 1), ("GEX", 3),
        ("PUX", 3), ("* OK IMAP4rev1\r\n", 1),
    ])
    func otherProtocols(_ text: String, _ decidedAt: Int) {
        let outcomes = scan(V.chunks(Array(text.utf8), size: 1))
        #expect(outcomes[decidedAt - 1] == .decided(.unrecognised))
        #expect(outcomes[..<(decidedAt - 1)].allSatisfy { $0 == .needMoreBytes })
    }

    @Test("the request line ceiling, CRLF included")
    func ceiling() {
        let prefix = "GET /", suffix = " HTTP/1.1\r\n"
        let fits = prefix + String(repeating: "a", count: 8192 - prefix.utf8.count - suffix.utf8.count) + suffix
        #expect(fits.utf8.count == 8192)
        #expect(opening(fits) == .decided(.httpRequest))
        let over = prefix + String(repeating: "a", count: 8193 - prefix.utf8.count - suffix.utf8.count) + suffix
        #expect(opening(over) == .decided(.unrecognised))
        let endless = Array((prefix + String(repeating: "a", count: 10_000)).utf8)
        let outcomes = scan(V.chunks(endless, size: 1000))
        #expect(outcomes[7] == .needMoreBytes && outcomes[8] == .decided(.unrecognised))
        #expect(opening("GET / HTTP/1.1\r\n", config: .init(maxRequestLineBytes: 15)) == .decided(.unrecognised))
        #expect(opening("GET / HTTP/1.1\r\n", config: .init(maxRequestLineBytes: 16)) == .decided(.httpRequest))
    }

    @Test("every split of three streams gives the same answer")
    func everySplit() {
        let streams: [([UInt8], StreamOpening)] = [
            (V.clientHelloRecord, .tlsHandshake),
            (Array("CONNECT example.com:443 HTTP/1.1\r\nHost: x\r\n\r\n".utf8), .httpRequest),
            (Array("SSH-2.0-OpenSSH_9.2\r\n".utf8), .unrecognised),
        ]
        for (bytes, expected) in streams {
            for index in 1..<bytes.count {
                #expect(scan(V.split(bytes, at: index)).last == .decided(expected), "split at \(index)")
            }
        }
    }

    @Test("it stays decided, and an empty chunk decides nothing")
    func sticky() {
        var scanner = StreamOpeningScanner()
        #expect(scanner.scan(Data()) == .needMoreBytes)
        #expect(scanner.scan(Data("GET / HTTP/1.1\r\n".utf8)) == .decided(.httpRequest))
        #expect(scanner.scan(Data(V.clientHelloRecord)) == .decided(.httpRequest))
        var tls = StreamOpeningScanner()
        #expect(tls.scan(Data(V.clientHelloRecord)) == .decided(.tlsHandshake))
        #expect(tls.scan(Data("GET / HTTP/1.1\r\n".utf8)) == .decided(.tlsHandshake))
        var other = StreamOpeningScanner()
        #expect(other.scan(Data("SSH".utf8)) == .decided(.unrecognised))
        #expect(other.scan(Data("GET / HTTP/1.1\r\n".utf8)) == .decided(.unrecognised))
    }
}
