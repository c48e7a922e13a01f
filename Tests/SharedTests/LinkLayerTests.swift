import Testing
@testable import Shared

/// Unwrapping the link layers of captures made elsewhere down to their IP datagram.
@Suite struct LinkLayerTests {
    static let datagram: [UInt8] = [0x45, 0, 0, 20] + [UInt8](repeating: 0, count: 16)

    func unwrap(_ linkType: UInt32, _ frame: [UInt8]) -> [UInt8]? {
        frame.withUnsafeBytes { LinkLayer(linkType: linkType)?.datagram(in: $0).map(Array.init) }
    }

    @Test("BSD loopback: the address family in either byte order, every BSD's IPv6 number, nothing else")
    func bsdLoopback() {
        #expect(unwrap(0, [2, 0, 0, 0] + Self.datagram) == Self.datagram)
        #expect(unwrap(0, [0, 0, 0, 2] + Self.datagram) == Self.datagram)
        for family: UInt8 in [24, 28, 30] {
            #expect(unwrap(0, [family, 0, 0, 0] + Self.datagram) == Self.datagram)
            #expect(unwrap(108, [0, 0, 0, family] + Self.datagram) == Self.datagram)
        }
        #expect(unwrap(0, [7, 0, 0, 0] + Self.datagram) == nil)
        #expect(unwrap(0, [2, 0, 0, 0]) == nil)
    }

    @Test("PPP: with or without ff 03, with a compressed protocol, IPv4 and IPv6 only")
    func ppp() {
        #expect(unwrap(9, [0xFF, 0x03, 0x00, 0x21] + Self.datagram) == Self.datagram)
        #expect(unwrap(9, [0x00, 0x57] + Self.datagram) == Self.datagram)
        #expect(unwrap(9, [0x21] + Self.datagram) == Self.datagram)
        #expect(unwrap(9, [0xFF, 0x03, 0xC0, 0x21, 1, 2]) == nil)   // LCP
        #expect(unwrap(9, [0xFF, 0x03, 0x00]) == nil)
    }

    @Test("raw IP under the numbers BSDs gave DLT_RAW, and the link types not read")
    func otherNumbers() {
        #expect(LinkLayer(linkType: 12) == .rawIP && LinkLayer(linkType: 14) == .rawIP)
        #expect(LinkLayer(linkType: 127) == nil)
        #expect(PcapFormat.Acceptance.anyRawIP.accepts(linkType: 12) && !PcapFormat.Acceptance.anyRawIP.accepts(linkType: 1))
        #expect(LinkTypeName.describe(127) == "IEEE 802.11 with radiotap (link type 127)")
        #expect(LinkTypeName.describe(147) == "link type 147")
    }
}
