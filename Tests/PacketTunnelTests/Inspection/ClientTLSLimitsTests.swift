import Foundation
import Shared
import Testing
@testable import PacketTunnel

/// What a ClientHello lets a server choose, read in the scanner's one pass: hand-written hellos
/// (RFC 8446 §4.1.2, §4.2.3, §4.2.7), GREASE (RFC 8701) and the signalling suites removed.
@Suite("The client's TLS limits, read from its hello")
struct ClientTLSLimitsTests {
    typealias V = TLSVectors

    func limits(_ hello: [UInt8]) -> ClientTLSLimits? {
        var scanner = ClientHelloScanner()
        _ = scanner.scan(Data(hello))
        return scanner.limits
    }

    @Test("the golden hello's limits: its versions and its two suites, no groups or signature list")
    func goldenHello() {
        #expect(limits(V.clientHelloRecord) == ClientTLSLimits(versions: .listed([.tls13, .tls12]), cipherSuites: [0x1301, 0x1302]))
    }

    @Test("suites, groups and signature schemes in the client's order, GREASE and signalling values removed")
    func listsInOrder() {
        let hello = V.clientHello(suites: [0x2A2A, 0xC02B, 0x00FF, 0x1301, 0x5600, 0xC02F],
                                  extensions: [V.serverName("a.test"), V.supportedGroups([0x3A3A, 29, 23, 24]),
                                               V.signatureAlgorithms([0x0403, 0x0804, 0x4A4A, 0x0401])])
        #expect(limits(hello) == ClientTLSLimits(versions: .upTo(.tls12), cipherSuites: [0xC02B, 0x1301, 0xC02F],
                                                 groups: [29, 23, 24], signatureAlgorithms: [0x0403, 0x0804, 0x0401]))
    }

    @Test("a hello without extensions has limits: its legacy version and its suites")
    func noExtensions() {
        #expect(limits(V.clientHello(suites: [0xC02F], extensions: nil)) == ClientTLSLimits(versions: .upTo(.tls12), cipherSuites: [0xC02F]))
    }

    @Test("an unsound or repeated groups or signature list costs the limits, not the name nor the offer",
          arguments: [
            [V.ext(10, [0x00, 0x03, 0x00, 0x1D, 0x00])],                       // odd length
            [V.ext(10, [0x00, 0x00])],                                         // empty list
            [V.ext(13, [0x00, 0x04, 0x04, 0x03])],                             // lies about its length
            [V.supportedGroups([29]), V.supportedGroups([23])],                // repeated
            [V.signatureAlgorithms([0x0403]), V.ext(13, [0x00, 0x02, 0x04, 0x03, 0xFF])],   // bytes after the list
          ])
    func unsoundLists(extensions: [[UInt8]]) {
        var scanner = ClientHelloScanner()
        let outcome = scanner.scan(Data(V.clientHello(extensions: [V.serverName("a.test")] + extensions)))
        #expect(outcome == .found("a.test"))
        #expect(scanner.offer != nil)
        #expect(scanner.limits == nil)
    }

    @Test("an unsound offer costs the limits too: they rest on the versions it reads")
    func unsoundOffer() {
        var scanner = ClientHelloScanner()
        _ = scanner.scan(Data(V.clientHello(extensions: [V.serverName("a.test"), V.supportedVersions([0x0304]),
                                                         V.supportedVersions([0x0303])])))
        #expect(scanner.offer == nil && scanner.limits == nil)
    }

    @Test("the same limits at every chunk boundary")
    func everyBoundary() {
        let hello = V.clientHello(suites: [0xC02B, 0x1301], extensions: [V.serverName("a.test"), V.supportedGroups([29]),
                                                                          V.signatureAlgorithms([0x0403])])
        let whole = limits(hello)
        #expect(whole != nil)
        for cut in 1..<hello.count {
            var scanner = ClientHelloScanner()
            for chunk in V.split(hello, at: cut) { _ = scanner.scan(chunk) }
            #expect(scanner.limits == whole, "cut at \(cut)")
        }
    }
}
