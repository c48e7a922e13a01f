import Foundation
import Shared
import Testing
@testable import PacketTunnel

@Suite struct ProxyReplyScannerTests {
    typealias P = ProxyVectors
    typealias V = TLSVectors

    private func scan(_ bytes: [UInt8], _ kind: ProxyReplyScanner.Kind, size: Int? = nil) -> ProxyReplyScanner.Outcome {
        var scanner = ProxyReplyScanner(kind: kind)
        var last = ProxyReplyScanner.Outcome.needMoreBytes
        for chunk in V.chunks(bytes, size: size ?? max(bytes.count, 1)) { last = scanner.scan(chunk) }
        return last
    }

    @Test("RFC 1928 §3 and §6: the method selection then a success reply end where the tunnel begins")
    func socks5Success() {
        let reply = P.socks5MethodSelection + P.socks5Success
        #expect(scan(reply + V.serverHello13Record, .socks5) == .found(reply.count))
        #expect(scan(reply + V.serverHello13Record, .socks5, size: 1) == .found(reply.count))
        // §5: a name (ATYP 03) or an IPv6 address (ATYP 04) as the bound address.
        let named = P.socks5MethodSelection + [0x05, 0x00, 0x00, 0x03, 0x01, UInt8(ascii: "a"), 0x01, 0xBB]
        #expect(scan(named, .socks5) == .found(named.count))
        let v6 = P.socks5MethodSelection + [0x05, 0x00, 0x00, 0x04] + [UInt8](repeating: 0, count: 16) + [0, 80]
        #expect(scan(v6, .socks5) == .found(v6.count))
    }

    @Test("RFC 1929 §2: a successful password exchange is stepped over; a failed one refuses")
    func socks5Password() {
        let reply = [0x05, 0x02, 0x01, 0x00] + P.socks5Success
        #expect(scan(reply, .socks5) == .found(reply.count))
        #expect(scan([0x05, 0x02, 0x01, 0x01], .socks5) == .unavailable(.refused))
    }

    @Test("RFC 1928 §3 and §6: no acceptable method, or a failure reply, is a refusal")
    func socks5Refusals() {
        #expect(scan([0x05, 0xFF], .socks5) == .unavailable(.refused))
        #expect(scan(P.socks5MethodSelection + [0x05, 0x05, 0x00, 0x01, 0, 0, 0, 0, 0, 0], .socks5) == .unavailable(.refused))
        #expect(scan([0x05, 0x01], .socks5) == .unavailable(.notReply))           // GSSAPI is not followed
        #expect(scan(V.serverHello13Record, .socks5) == .unavailable(.notReply))
    }

    @Test("SOCKS 4: CD 90 grants in 8 bytes, 91 refuses")
    func socks4() {
        #expect(scan(P.socks4Granted + V.serverHello13Record, .socks4) == .found(8))
        #expect(scan([0x00, 91, 0, 0, 0, 0, 0, 0], .socks4) == .unavailable(.refused))
        #expect(scan([0x00, 42, 0, 0, 0, 0, 0, 0], .socks4) == .unavailable(.notReply))
    }

    @Test("RFC 9110 §9.3.6: any 2xx makes a tunnel, after its header section")
    func httpConnect() {
        let reply = P.httpEstablished
        #expect(scan(reply + V.serverHello13Record, .httpConnect) == .found(reply.count))
        let bare = P.bytes("HTTP/1.0 200\r\nProxy-Agent: test\r\n\r\n")
        #expect(scan(bare, .httpConnect, size: 1) == .found(bare.count))
        let denied = P.bytes("HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n")
        #expect(scan(denied, .httpConnect) == .unavailable(.refused))
        #expect(scan(P.bytes("HTTP/1.1 2000 OK\r\n\r\n"), .httpConnect) == .unavailable(.notReply))
        #expect(scan(P.bytes("SSH-2.0-x\r\n"), .httpConnect) == .unavailable(.notReply))
    }

    @Test("every proper prefix of a reply needs more bytes")
    func prefixes() {
        for (reply, kind) in [(P.socks5MethodSelection + P.socks5Success, ProxyReplyScanner.Kind.socks5),
                              (P.socks4Granted, .socks4), (P.httpEstablished, .httpConnect)] {
            for length in 0..<reply.count {
                #expect(scan(Array(reply[..<length]), kind) == .needMoreBytes, "\(kind) prefix \(length)")
            }
        }
    }

    @Test("a reply not ended within the limit is too large")
    func tooLarge() {
        let long = P.bytes("HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: 2000))
        #expect(scan(long, .httpConnect, size: 64) == .unavailable(.tooLarge))
    }
}
