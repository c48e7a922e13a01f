import Foundation
import Shared
import Testing
@testable import PacketTunnel

/// The TLS inside each kind of proxy tunnel is read as if it opened the streams.
@Suite struct TCPFlowScannersProxyTests {
    typealias P = ProxyVectors
    typealias V = TLSVectors

    struct Tunnel: Sendable, CustomTestStringConvertible {
        var request: [UInt8]
        var reply: [UInt8]
        var target: ProxyTarget
        var opening: StreamOpening
        var testDescription: String { target.proxyProtocol.rawValue }
    }

    static let tunnels: [Tunnel] = [
        Tunnel(request: P.socks5Greeting + P.socks5Connect(name: "example.com"),
               reply: P.socks5MethodSelection + P.socks5Success,
               target: ProxyTarget(proxyProtocol: .socks5, host: "example.com", port: 443), opening: .unrecognised),
        Tunnel(request: P.socks4Connect(address: [198, 18, 0, 1]), reply: P.socks4Granted,
               target: ProxyTarget(proxyProtocol: .socks4, host: "198.18.0.1", port: 443), opening: .unrecognised),
        Tunnel(request: P.socks4aConnect(name: "example.com"), reply: P.socks4Granted,
               target: ProxyTarget(proxyProtocol: .socks4a, host: "example.com", port: 443), opening: .unrecognised),
        Tunnel(request: P.httpConnect("example.com:443"), reply: P.httpEstablished,
               target: ProxyTarget(proxyProtocol: .httpConnect, host: "example.com", port: 443), opening: .httpRequest),
    ]

    static let negotiated = NegotiatedTLS(version: .tls13, cipherSuite: TLSCipherSuite(rawValue: 0x1301),
                                          fromHelloRetryRequest: false, source: .serverHello)
    static let offer = ClientTLSOffer(versions: .listed([.tls13, .tls12]), applicationProtocols: ["h2", "http/1.1"])

    /// Feeds the two streams in alternating chunks of `size`, the client's first.
    private func feed(_ scanners: inout TCPFlowScanners, client: [UInt8], server: [UInt8], size: Int) -> [FlowFact] {
        let clientChunks = V.chunks(client, size: size), serverChunks = V.chunks(server, size: size)
        var facts: [FlowFact] = []
        for index in 0..<max(clientChunks.count, serverChunks.count) {
            if index < clientChunks.count { facts += clientChunks[index].withUnsafeBytes { scanners.client($0) } }
            if index < serverChunks.count { facts += serverChunks[index].withUnsafeBytes { scanners.server($0) } }
        }
        return facts
    }

    @Test("the target, the ClientHello and the ServerHello inside the tunnel, however the streams are cut",
          arguments: tunnels)
    func tlsInsideTheTunnel(_ tunnel: Tunnel) {
        for size in [1, 5, 64, 4096] {
            var scanners = TCPFlowScanners()
            let facts = feed(&scanners, client: tunnel.request + V.clientHelloRecord,
                             server: tunnel.reply + V.serverHello13Record, size: size)
            #expect(facts.count == 7, "chunks of \(size): \(facts)")   // and both hellos' fingerprints
            #expect(facts.first == .streamOpening(tunnel.opening))
            #expect(facts.contains(.proxyTarget(tunnel.target)))
            #expect(facts.contains(.serverName("example.com")))
            #expect(facts.contains(.clientOffer(Self.offer)))
            #expect(facts.contains(.serverAnswer(.negotiated(Self.negotiated))))
            #expect(scanners.isSettled)
        }
    }

    @Test("RFC 1928 §3: the server's method selection comes before the client's request is complete")
    func socks5ServerAnswersTheGreetingFirst() {
        var scanners = TCPFlowScanners()
        var facts: [FlowFact] = []
        facts += Data(P.socks5Greeting).withUnsafeBytes { scanners.client($0) }
        facts += Data(P.socks5MethodSelection).withUnsafeBytes { scanners.server($0) }
        facts += Data(P.socks5Connect(name: "example.com") + V.clientHelloRecord).withUnsafeBytes { scanners.client($0) }
        facts += Data(P.socks5Success + V.serverHello13Record).withUnsafeBytes { scanners.server($0) }
        #expect(facts.contains(.proxyTarget(ProxyTarget(proxyProtocol: .socks5, host: "example.com", port: 443))))
        #expect(facts.contains(.serverName("example.com")))
        #expect(facts.contains(.serverAnswer(.negotiated(Self.negotiated))))
    }

    @Test("a TLS 1.2 flight after a CONNECT reply gives the answer and the chain")
    func tls12InsideAnHTTPTunnel() {
        var scanners = TCPFlowScanners()
        let flight = V.records(V.serverHello12Message + V.serverHelloDone, size: 16_384)
        let facts = feed(&scanners, client: P.httpConnect("example.com:443"), server: P.httpEstablished + flight,
                         size: 4096)
        #expect(facts.last == .serverCertificates(.notSent(.continuedWithoutCertificate)))
    }

    @Test("a refused CONNECT names the target and reads nothing from the server")
    func refusedTunnel() {
        var scanners = TCPFlowScanners()
        let denied = P.bytes("HTTP/1.1 403 Forbidden\r\n\r\n") + V.handshakeFailureAlert
        let facts = feed(&scanners, client: P.httpConnect("example.com:443"), server: denied, size: 4096)
        #expect(facts == [.streamOpening(.httpRequest),
                          .proxyTarget(ProxyTarget(proxyProtocol: .httpConnect, host: "example.com", port: 443))])
        #expect(scanners.isServerSettled)
    }

    @Test("a client that opens like a SOCKS5 greeting but is none still has its server's TLS answer read")
    func aMisleadingFirstByte() {
        var scanners = TCPFlowScanners()
        var facts = Data([0x05, 0x00]).withUnsafeBytes { scanners.client($0) }                       // no methods: refused
        facts += Data(V.handshakeFailureAlert).withUnsafeBytes { scanners.server($0) }
        #expect(facts == [.streamOpening(.unrecognised), .serverAnswer(.refused(alert: 0x28))])
        var pending = TCPFlowScanners()
        _ = Data([0x05]).withUnsafeBytes { pending.client($0) }                                     // still undecided
        #expect(Data(V.serverHello13Record).withUnsafeBytes { pending.server($0) }
                == [.serverAnswer(.negotiated(Self.negotiated)), .serverFingerprints(TCPFlowScannersTests.ja3s13)])
    }

    @Test("a plain TLS flow is read as before, and a server that speaks first is not taken for a proxy")
    func noProxy() {
        var scanners = TCPFlowScanners()
        let facts = feed(&scanners, client: V.clientHelloRecord, server: V.serverHello13Record, size: 4096)
        #expect(facts.count == 6)
        #expect(!facts.contains { if case .proxyTarget = $0 { true } else { false } })
        var smtp = TCPFlowScanners()
        #expect(Data(V.handshakeFailureAlert).withUnsafeBytes { smtp.server($0) } == [.serverAnswer(.refused(alert: 0x28))])
    }

    @Test("the longest request, then the largest hello one byte per record, settle within the client's reach")
    func theClientSettlesWithinItsReach() {
        let head = P.bytes("CONNECT reach.test:443 HTTP/1.1\r\nX: ")
        let request = head + [UInt8](repeating: UInt8(ascii: "a"), count: ProxyRequestScanner.maxRequestBytes - head.count - 4)
            + P.bytes("\r\n\r\n")
        let hello = TCPFlowScannersTests.padded({ V.clientHelloBody(extensions: $0) },
                                                to: ClientHelloScanner.Config().maxHelloBytes,
                                                after: [V.serverName("reach.test")])
        let stream = request + V.records(V.handshake(1, hello), size: 1)
        var scanners = TCPFlowScanners()
        let facts = Data(stream[..<(stream.count - 1)]).withUnsafeBytes { scanners.client($0) }
        #expect(facts.contains(.proxyTarget(ProxyTarget(proxyProtocol: .httpConnect, host: "reach.test", port: 443))))
        #expect(!scanners.isClientSettled)                                  // the hello's last byte is still due
        #expect(Data(stream[(stream.count - 1)...]).withUnsafeBytes { scanners.client($0) }.contains(.serverName("reach.test")))
        #expect(scanners.isClientSettled)
        #expect(stream.count <= TCPFlowScanners.clientStreamReach)
    }
}
