import Fixtures
import Foundation
import Shared
import Testing
@testable import PacketTunnel

/// Seeded mutations of proxy handshakes with TLS inside: no scanner traps, and feeding byte by
/// byte always gives the answer one chunk gives (STYLE practice 13).
@Suite struct ProxyScannerRobustnessTests {
    typealias P = ProxyVectors
    typealias V = TLSVectors

    private static func mutations(of bytes: [UInt8], seed: UInt64) -> [[UInt8]] {
        TLSScannerRobustnessTests.mutations(of: bytes, seed: seed, random: 300)
    }

    @Test("mutated proxy requests: one chunk and byte by byte agree", arguments: ProxyRequestScannerTests.requests.indices)
    func requests(_ index: Int) {
        for mutated in Self.mutations(of: ProxyRequestScannerTests.requests[index], seed: UInt64(20 + index)) {
            var whole = ProxyRequestScanner()
            var bytes = ProxyRequestScanner()
            let one = whole.scan(Data(mutated))
            let last = V.chunks(mutated, size: 1).map { bytes.scan($0) }.last ?? .needMoreBytes
            #expect(one == last, "\(mutated)")
        }
    }

    @Test("mutated proxy replies: one chunk and byte by byte agree")
    func replies() {
        let replies: [([UInt8], ProxyReplyScanner.Kind)] = [
            (P.socks5MethodSelection + P.socks5Success, .socks5), ([0x05, 0x02, 0x01, 0x00] + P.socks5Success, .socks5),
            (P.socks4Granted, .socks4), (P.httpEstablished, .httpConnect),
        ]
        for (index, (reply, kind)) in replies.enumerated() {
            for mutated in Self.mutations(of: reply, seed: UInt64(30 + index)) {
                var whole = ProxyReplyScanner(kind: kind)
                var bytes = ProxyReplyScanner(kind: kind)
                let one = whole.scan(Data(mutated))
                let last = V.chunks(mutated, size: 1).map { bytes.scan($0) }.last ?? .needMoreBytes
                #expect(one == last, "\(mutated)")
            }
        }
    }

    @Test("mutated tunnels: the flow's scanners learn the same facts however the streams are cut",
          arguments: TCPFlowScannersProxyTests.tunnels)
    func tunnels(_ tunnel: TCPFlowScannersProxyTests.Tunnel) {
        let client = tunnel.request + V.clientHelloRecord
        let server = tunnel.reply + V.serverHello13Record
        for mutated in Self.mutations(of: client, seed: 40) {
            #expect(Set(facts(client: [Data(mutated)], server: [Data(server)]).map(String.init(describing:)))
                    == Set(facts(client: V.chunks(mutated, size: 1), server: [Data(server)]).map(String.init(describing:))))
        }
        for mutated in Self.mutations(of: server, seed: 41) {
            #expect(facts(client: [Data(client)], server: [Data(mutated)])
                    == facts(client: [Data(client)], server: V.chunks(mutated, size: 1)))
        }
    }

    /// The client's chunks, then the server's.
    private func facts(client: [Data], server: [Data]) -> [FlowFact] {
        var scanners = TCPFlowScanners()
        var facts: [FlowFact] = []
        for chunk in client { facts += chunk.withUnsafeBytes { scanners.client($0) } }
        for chunk in server { facts += chunk.withUnsafeBytes { scanners.server($0) } }
        return facts
    }
}
