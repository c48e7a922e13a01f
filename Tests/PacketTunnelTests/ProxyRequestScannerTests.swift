import Foundation
import Shared
import Testing
@testable import PacketTunnel

@Suite struct ProxyRequestScannerTests {
    typealias P = ProxyVectors
    typealias V = TLSVectors

    private func scan(_ chunks: [Data]) -> ProxyRequestScanner.Outcome {
        var scanner = ProxyRequestScanner()
        var last = ProxyRequestScanner.Outcome.needMoreBytes
        for chunk in chunks { last = scanner.scan(chunk) }
        return last
    }

    private func scan(_ bytes: [UInt8]) -> ProxyRequestScanner.Outcome { scan([Data(bytes)]) }

    private func found(_ proxyProtocol: ProxyProtocol, _ host: String, _ port: UInt16, end: Int) -> ProxyRequestScanner.Outcome {
        .found(.init(target: ProxyTarget(proxyProtocol: proxyProtocol, host: host, port: port), end: end))
    }

    // MARK: SOCKS5

    @Test("RFC 1928 §4: a greeting then a CONNECT to a domain name (ATYP 03) names its host and port")
    func socks5DomainName() {
        let stream = P.socks5Greeting + P.socks5Connect(name: "example.com")
        #expect(scan(stream + V.clientHelloRecord) == found(.socks5, "example.com", 443, end: stream.count))
    }

    @Test("RFC 1928 §5: IPv4 (ATYP 01) and IPv6 (ATYP 04) targets are written out")
    func socks5Addresses() {
        let v4 = P.socks5Greeting + P.socks5Connect(address: [198, 18, 0, 1], port: 8443)
        #expect(scan(v4) == found(.socks5, "198.18.0.1", 8443, end: v4.count))
        let v6 = P.socks5Greeting + P.socks5Connect(address: [0xFD, 0] + [UInt8](repeating: 0, count: 13) + [1])
        #expect(scan(v6) == found(.socks5, "fd00::1", 443, end: v6.count))
    }

    @Test("RFC 1929 §2: credentials between the greeting and the request are stepped over")
    func socks5Credentials() {
        let stream = P.socks5GreetingWithPassword + P.socks5Credentials + P.socks5Connect(name: "a.example")
        #expect(scan(stream) == found(.socks5, "a.example", 443, end: stream.count))
    }

    @Test("RFC 1928 §3–4: no methods, BIND, UDP ASSOCIATE, a nonzero RSV and an unknown ATYP are no tunnel request")
    func socks5Refusals() {
        #expect(scan([0x05, 0x00]) == .unavailable(.notProxyRequest))
        for command: UInt8 in [0x02, 0x03] {
            #expect(scan(P.socks5Greeting + [0x05, command, 0x00, 0x01, 1, 2, 3, 4, 0, 80]) == .unavailable(.notProxyRequest))
        }
        #expect(scan(P.socks5Greeting + [0x05, 0x01, 0x01, 0x01]) == .unavailable(.notProxyRequest))
        #expect(scan(P.socks5Greeting + [0x05, 0x01, 0x00, 0x02]) == .unavailable(.notProxyRequest))
        #expect(scan(P.socks5Greeting + [0x05, 0x01, 0x00, 0x03, 0x00]) == .unavailable(.notProxyRequest))
    }

    // MARK: SOCKS4 and 4a

    @Test("SOCKS 4: CONNECT to an IPv4 address, after the user id")
    func socks4() {
        let stream = P.socks4Connect(address: [198, 18, 0, 1])
        #expect(scan(stream + V.clientHelloRecord) == found(.socks4, "198.18.0.1", 443, end: stream.count))
    }

    @Test("SOCKS 4A: address 0.0.0.x (x ≠ 0) and a host name after the user id")
    func socks4a() {
        let stream = P.socks4aConnect(name: "example.com")
        #expect(scan(stream) == found(.socks4a, "example.com", 443, end: stream.count))
        // 0.0.0.0 is an address, not the 4A marker.
        let zero = P.socks4Connect(address: [0, 0, 0, 0])
        #expect(scan(zero) == found(.socks4, "0.0.0.0", 443, end: zero.count))
        #expect(scan(P.socks4aConnect(name: "")) == .unavailable(.notProxyRequest))
        #expect(scan([0x04, 0x02, 0x01, 0xBB]) == .unavailable(.notProxyRequest))         // BIND
    }

    // MARK: HTTP CONNECT

    @Test("RFC 9110 §9.3.6: CONNECT host:port, its header section ended by an empty line")
    func httpConnect() {
        let stream = P.httpConnect("example.com:443")
        #expect(scan(stream + V.clientHelloRecord) == found(.httpConnect, "example.com", 443, end: stream.count))
        let bare = P.bytes("CONNECT example.com:8443 HTTP/1.0\r\n\r\n")
        #expect(scan(bare) == found(.httpConnect, "example.com", 8443, end: bare.count))
    }

    @Test("RFC 3986 §3.2.2: an IPv6 host in brackets is kept without them; an IPv4 one as written")
    func httpConnectLiterals() {
        let v6 = P.httpConnect("[fd00::1]:443")
        #expect(scan(v6) == found(.httpConnect, "fd00::1", 443, end: v6.count))
        let v4 = P.httpConnect("198.18.0.1:443")
        #expect(scan(v4) == found(.httpConnect, "198.18.0.1", 443, end: v4.count))
    }

    @Test("RFC 9112 §3.2.3: an authority without a port, a bad port, a bare LF or another method is no CONNECT")
    func httpConnectRefusals() {
        for text in ["CONNECT example.com HTTP/1.1\r\n\r\n", "CONNECT example.com:65536 HTTP/1.1\r\n\r\n",
                     "CONNECT example.com:x HTTP/1.1\r\n\r\n", "CONNECT fd00::1:443 HTTP/1.1\r\n\r\n",
                     "CONNECT [fd00::1:443 HTTP/1.1\r\n\r\n", "CONNECT :443 HTTP/1.1\r\n\r\n",
                     "CONNECT example.com:443 HTTP/1.1\n\n", "CONNECT example.com:443 HTTP/2.0\r\n\r\n",
                     "CONNECT example.com:443 HTTP/1.1\r\nA: \u{1}\r\n\r\n", "COPY / HTTP/1.1\r\n\r\n"] {
            #expect(scan(P.bytes(text)) == .unavailable(.notProxyRequest), "\(text.debugDescription)")
        }
    }

    // MARK: bounds and feeding

    @Test("a TLS record or a GET is refused at its first byte")
    func otherStreams() {
        #expect(scan([0x16]) == .unavailable(.notProxyRequest))
        #expect(scan(P.bytes("G")) == .unavailable(.notProxyRequest))
        #expect(scan([UInt8]()) == .needMoreBytes)
    }

    @Test("a request not ended within the limit is too large")
    func tooLarge() {
        let long = P.bytes("CONNECT a.example:443 HTTP/1.1\r\nX: " + String(repeating: "a", count: 2000))
        #expect(scan(long) == .unavailable(.tooLarge))
        #expect(scan(V.chunks(long, size: 100)) == .unavailable(.tooLarge))
    }

    static let requests: [[UInt8]] = [
        P.socks5Greeting + P.socks5Connect(name: "example.com"),
        P.socks5GreetingWithPassword + P.socks5Credentials + P.socks5Connect(address: [198, 18, 0, 1]),
        P.socks4Connect(address: [198, 18, 0, 1]), P.socks4aConnect(name: "example.com"),
        P.httpConnect("example.com:443"), P.httpConnect("[fd00::1]:443"),
    ]

    @Test("every proper prefix needs more bytes, and byte by byte finds what one chunk finds", arguments: requests)
    func prefixesAndChunking(_ request: [UInt8]) {
        let whole = scan(request + V.clientHelloRecord)
        guard case .found(let found) = whole else { Issue.record("\(whole)"); return }
        #expect(found.end == request.count)
        for length in 0..<request.count {
            #expect(scan(Array(request[..<length])) == .needMoreBytes, "prefix \(length)")
        }
        #expect(scan(V.chunks(request + V.clientHelloRecord, size: 1)) == whole)
    }

    @Test("settled, it stays settled and says what it first said")
    func sticky() {
        var scanner = ProxyRequestScanner()
        let request = P.socks4aConnect(name: "example.com")
        let first = scanner.scan(Data(request))
        #expect(scanner.scan(Data(P.httpConnect("other.example:1"))) == first)
        #expect(scanner.candidate == .socks4)
        var refused = ProxyRequestScanner()
        _ = refused.scan(Data([0x16]))
        #expect(refused.scan(Data(request)) == .unavailable(.notProxyRequest))
        #expect(refused.candidate == nil)
    }

    @Test("the candidate reply is known from the first byte")
    func candidate() {
        for (first, kind) in [(UInt8(0x05), ProxyReplyScanner.Kind.socks5), (0x04, .socks4), (UInt8(ascii: "C"), .httpConnect)] {
            var scanner = ProxyRequestScanner()
            #expect(scanner.candidate == nil)
            #expect(scanner.scan(Data([first])) == .needMoreBytes)
            #expect(scanner.candidate == kind)
        }
    }
}
