import Fixtures
import Foundation
import Testing
@testable import Shared

@Suite struct PacketParserTests {
    typealias G = GoldenVectors

    private func parse(_ bytes: [UInt8], originalLength: Int? = nil) throws(PacketParseError) -> ParsedPacket {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(PacketParseError) in try PacketParser.parse(raw, originalLength: originalLength) }
        }
        return try result.get()
    }

    private func error(_ bytes: [UInt8], originalLength: Int? = nil) -> PacketParseError? {
        do { _ = try parse(bytes, originalLength: originalLength); return nil } catch { return error }
    }

    // MARK: golden vectors, every field

    @Test("an IPv4 total length of 0 (a segment captured before TCP segmentation offload) is read with the length the capture holds")
    func tsoSegmentTakesTheCapturedLength() throws {
        var segment = GoldenVectors.ipv4TCP
        let payload = [UInt8](repeating: 0x61, count: 3000)
        segment = segment.setting([2: 0, 3: 0]) + payload
        let packet = try segment.withUnsafeBytes { try PacketParser.parse($0) }
        #expect(packet.ip.totalLength == segment.count)
        #expect(packet.transportPayloadLength == payload.count + GoldenVectors.ipv4TCP.count - 40)
        // Cut by a snaplen: the original length stands in for the missing one.
        let cut = try segment.prefix(100).withUnsafeBytes { try PacketParser.parse($0, originalLength: segment.count) }
        #expect(cut.ip.totalLength == segment.count && cut.isTruncated)
    }

    @Test func ipv4TCPSynReadsEveryField() throws {
        let packet = try parse(G.ipv4TCP)
        #expect(packet.ip.version == .v4 && packet.ip.proto == .tcp && packet.ip.rawProtocol == 6)
        #expect(packet.ip.source == G.address("10.7.0.2") && packet.ip.destination == G.address("198.18.0.1"))
        #expect(packet.ip.headerLength == 20 && packet.ip.totalLength == 40 && packet.ip.hopLimit == 64)
        #expect(packet.ip.fragment == nil && packet.ip.payloadRange == 20..<40)
        let tcp = try #require(packet.tcp)
        #expect(tcp.sourcePort == 51234 && tcp.destinationPort == 443)
        #expect(tcp.sequence == 0x0102_0304 && tcp.acknowledgment == 0)
        #expect(tcp.flags == .syn && tcp.windowSize == 64240 && tcp.dataOffsetBytes == 20)
        #expect(tcp.payloadRange == 40..<40)
        #expect(packet.udp == nil && packet.icmp == nil)
        #expect(packet.flowKey == FlowKey(proto: .tcp, source: G.endpoint("198.18.0.1", 443), destination: G.endpoint("10.7.0.2", 51234)))
        #expect(packet.flowKey.endpointA == G.endpoint("10.7.0.2", 51234))
        #expect(!packet.isTruncated && packet.capturedLength == 40)
    }

    @Test func ipv4UDPReadsEveryField() throws {
        let packet = try parse(G.ipv4UDP)
        let udp = try #require(packet.udp)
        #expect(packet.source == G.endpoint("198.18.0.53", 53) && packet.destination == G.endpoint("10.7.0.2", 40000))
        #expect(udp.length == 11 && udp.checksum == 0xceaf && udp.payloadRange == 28..<31)
        #expect(packet.ip.totalLength == 31)
    }

    @Test func ipv6TCPReadsEveryField() throws {
        let packet = try parse(G.ipv6TCP)
        #expect(packet.ip.version == .v6 && packet.ip.headerLength == 40 && packet.ip.totalLength == 65)
        #expect(packet.ip.source == G.address("fd00:7::2") && packet.ip.destination == G.address("fd00:18::1"))
        let tcp = try #require(packet.tcp)
        #expect(tcp.sequence == 0xFFFF_FFF0 && tcp.acknowledgment == 0x10 && tcp.flags == [.psh, .ack])
        #expect(tcp.windowSize == 512 && tcp.payloadRange == 60..<65)
    }

    @Test func ipv6UDPReadsEveryField() throws {
        let packet = try parse(G.ipv6UDP)
        #expect(packet.source == G.endpoint("fd00:18::35", 53) && packet.destination == G.endpoint("fd00:7::2", 33333))
        #expect(packet.udp?.length == 15 && packet.udp?.payloadRange == 48..<55)
    }

    @Test func ipv6BehindThreeExtensionHeadersReachesTCP() throws {
        let packet = try parse(G.ipv6ThreeExtensionHeaders)
        #expect(packet.ip.headerLength == 64 && packet.ip.rawProtocol == 6 && packet.ip.proto == .tcp)
        let tcp = try #require(packet.tcp)
        #expect(tcp.sourcePort == 40000 && tcp.destinationPort == 443 && tcp.sequence == 1000 && tcp.acknowledgment == 2000)
        #expect(tcp.flags == .ack && tcp.payloadRange == 84..<87)
        #expect(packet.ip.fragment == nil)
    }

    @Test func ipv4OptionsAreSkippedByIHL() throws {
        let packet = try parse(G.ipv4WithOptions)
        #expect(packet.ip.headerLength == 24 && packet.udp?.sourcePort == 5000 && packet.udp?.payloadRange == 32..<33)
    }

    @Test func laterFragmentsCarryNoTransportHeader() throws {
        let v4 = try parse(G.ipv4LaterFragment)
        #expect(v4.ip.fragment == IPFragment(offset: 1480, moreFragments: false, identification: 0xABCD))
        #expect(v4.ip.proto == .tcp && v4.tcp == nil && v4.source.port == 0 && v4.ip.payloadRange == 20..<28)
        let v6 = try parse(G.ipv6LaterFragment)
        #expect(v6.ip.fragment == IPFragment(offset: 1232, moreFragments: true, identification: 0x0102_0304))
        #expect(v6.ip.proto == .udp && v6.udp == nil && v6.ip.headerLength == 48 && v6.ip.payloadRange == 48..<52)
    }

    @Test func aFirstFragmentCarriesItsTransportHeader() throws {
        let packet = try parse(G.ipv4TCP.setting([6: 0x20]))          // MF set, offset 0
        #expect(packet.ip.fragment?.isFirst == true && packet.ip.fragment?.moreFragments == true)
        #expect(packet.tcp?.sourcePort == 51234)
    }

    @Test func icmpAndUnknownProtocolsParseWithoutATransportHeader() throws {
        let echo = SyntheticTraffic.icmpEcho(source: G.address("10.7.0.2"), destination: G.address("198.18.0.1"),
                                             reply: false, identifier: 1, sequence: 2, payload: Data())
        let icmp = try PacketParser.parse(echo)
        #expect(icmp.ip.proto == .icmp && icmp.icmp == ICMPHeader(type: 8, code: 0) && icmp.tcp == nil)
        let echo6 = SyntheticTraffic.icmpEcho(source: G.address("fd00:7::2"), destination: G.address("fd00::1"),
                                              reply: true, identifier: 1, sequence: 2, payload: Data())
        #expect(try PacketParser.parse(echo6).icmp == ICMPHeader(type: 129, code: 0))
        let other = try parse(G.ipv4TCP.setting([9: 47]))              // GRE
        #expect(other.ip.proto.rawValue == 47 && other.ip.rawProtocol == 47 && other.tcp == nil && other.udp == nil)
        #expect(other.flowKey.proto == IPProtocolNumber(wire: 47))
        #expect(try parse(G.ipv6UDP.setting([6: 59])).ip.rawProtocol == 59)   // no next header
    }

    @Test func theVersionNibbleWinsOverTheFamilyHint() throws {
        let packet = try PacketParser.parse(Data(G.ipv6UDP), protocolFamily: 2 /* AF_INET */)
        #expect(packet.ip.version == .v6)
    }

    @Test func rangesIndexADataSliceByItsOwnIndices() throws {
        let backing = Data([0xEE, 0xEE, 0xEE] + G.ipv4UDP)
        let slice = backing[3...]
        let packet = try PacketParser.parse(slice)
        #expect(slice[packet.udp!.payloadRange] == Data("abc".utf8))
    }

    @Test func trailingBytesBeyondTheTotalLengthAreIgnored() throws {
        let packet = try parse(G.ipv4UDP + [0, 0, 0, 0])          // Ethernet-style padding
        #expect(packet.udp?.payloadRange == 28..<31 && packet.ip.totalLength == 31)
    }

    // MARK: snaplen truncation

    @Test func aRecordCutBySnaplenParsesAsTruncatedWithClippedRanges() throws {
        let cut = Array(G.ipv6TCP.prefix(62))
        let packet = try parse(cut, originalLength: G.ipv6TCP.count)
        #expect(packet.isTruncated && packet.capturedLength == 62 && packet.originalLength == 65)
        #expect(packet.tcp?.payloadRange == 60..<62 && packet.ip.totalLength == 65)
    }

    @Test func aCutThatLosesTheTransportHeaderIsTruncatedL4() {
        #expect(error(Array(G.ipv4TCP.prefix(30)), originalLength: 40) == .truncatedL4(expected: 20, got: 10))
    }

    // MARK: every typed error

    @Test func everyTypedErrorHasAPacketThatProducesIt() {
        #expect(error([]) == .tooShort(expected: 1, got: 0))
        #expect(error(Array(G.ipv4TCP.prefix(19))) == .tooShort(expected: 20, got: 19))
        #expect(error(Array(G.ipv6TCP.prefix(39))) == .tooShort(expected: 40, got: 39))
        #expect(error(G.ipv4TCP.setting([0: 0x55])) == .unsupportedVersion(5))
        #expect(error(G.ipv4TCP.setting([0: 0x44])) == .badHeaderLength(16))
        // 60 bytes of header in a 31-byte datagram.
        #expect(error(G.ipv4UDP.setting([0: 0x4F])) == .badHeaderLength(60))
        #expect(error(G.ipv4TCP.setting([3: 0x40])) == .totalLengthBeyondBuffer(declared: 64, available: 40))
        #expect(error(G.ipv6UDP.setting([5: 0x20])) == .totalLengthBeyondBuffer(declared: 72, available: 55))
        #expect(error(Array(G.ipv4UDP.prefix(24))) == .totalLengthBeyondBuffer(declared: 31, available: 24))
        // Destination options claiming 1608 bytes.
        #expect(error(G.ipv6ThreeExtensionHeaders.setting([57: 200])) == .extensionHeaderTruncated(nextHeader: 60, offset: 56))
        #expect(error(Self.extensionChain(count: 9)) == .extensionChainTooLong(limit: PacketParser.extensionHeaderLimit))
        #expect(error(G.ipv4TCP.setting([32: 0x40])) == .badDataOffset(16))
        #expect(error(G.ipv4TCP.setting([32: 0xF0])) == .badDataOffset(60))
        // A 24-byte TCP header in a 25-byte segment of which 22 bytes were captured.
        #expect(error(Array(G.ipv6TCP.setting([52: 0x60]).prefix(62)), originalLength: 65) == .truncatedL4(expected: 24, got: 22))
        #expect(error(Array(G.ipv4UDP.setting([3: 26]).prefix(26))) == .truncatedL4(expected: 8, got: 6))
        #expect(error(G.ipv4UDP.setting([25: 0x0C])) == .badUDPLength(declared: 12, available: 11))
        #expect(error(G.ipv4UDP.setting([25: 0x07])) == .badUDPLength(declared: 7, available: 11))
        #expect(error(Array(G.ipv4UDP.setting([9: 1, 3: 23]).prefix(23))) == .truncatedL4(expected: 4, got: 3))
    }

    /// An IPv6 datagram with `count` 8-byte destination-options headers, then no next header.
    static func extensionChain(count: Int) -> [UInt8] {
        var bytes = Array(G.ipv6UDP.prefix(40))
        bytes[6] = 60
        let length = 8 * count
        bytes[4] = UInt8(length >> 8)
        bytes[5] = UInt8(length & 0xFF)
        for index in 0..<count { bytes += [index == count - 1 ? 59 : 60, 0, 1, 4, 0, 0, 0, 0] }
        return bytes
    }

    @Test func aChainAtTheLimitIsStillWalked() throws {
        #expect(try parse(Self.extensionChain(count: PacketParser.extensionHeaderLimit)).ip.rawProtocol == 59)
    }

    // MARK: nothing traps

    @Test func everyTruncationOfEveryGoldenVectorFailsCleanlyOrParses() {
        for (name, bytes) in G.all {
            for length in 0..<bytes.count {
                let prefix = Array(bytes.prefix(length))
                // Claimed as a whole datagram: the declared length no longer fits.
                #expect(error(prefix) != nil, "\(name) cut to \(length) bytes parsed as whole")
                // Claimed as a snaplen cut: either parses as truncated or names what is missing.
                if let packet = try? parse(prefix, originalLength: bytes.count) {
                    #expect(packet.isTruncated, "\(name) cut to \(length)")
                }
            }
        }
    }

    @Test func randomBuffersAndBitFlipsNeverTrap() {
        var random = SeededRandom(seed: 0xF00D)
        for round in 0..<5_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<Int.random(in: 0...120, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                if !bytes.isEmpty { bytes[0] = [0x45, 0x46, 0x4F, 0x60, 0x61][Int.random(in: 0...4, using: &random)] }
            } else {
                bytes = G.all[Int.random(in: 0..<G.all.count, using: &random)].bytes
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let index = Int.random(in: 0..<bytes.count, using: &random)
                    bytes[index] ^= UInt8(1) << UInt8.random(in: 0...7, using: &random)
                }
            }
            let original = Bool.random(using: &random) ? nil : bytes.count + Int.random(in: 0...2_000, using: &random)
            if let packet = try? parse(bytes, originalLength: original) {
                // Whatever parsed, its ranges lie inside the buffer.
                #expect(packet.ip.payloadRange.upperBound <= bytes.count)
                #expect((packet.tcp?.payloadRange.upperBound ?? 0) <= bytes.count)
                #expect((packet.udp?.payloadRange.upperBound ?? 0) <= bytes.count)
            }
        }
    }
}
