import Foundation
import TestSupport
import Testing
@testable import Shared

/// The "port unreachable" the relay answers a closed UDP port with, read back by tshark: the
/// kind, the checksum, and the quoted datagram's addresses and ports, which a stack uses to find
/// the socket to fail.
@Suite(.serialized) struct PortUnreachableTests {
    static let device4 = IPEndpoint(address: IPAddress(parsing: "198.18.0.2")!, port: 40_000)
    static let server4 = IPEndpoint(address: IPAddress(parsing: "198.19.0.2")!, port: 5_353)
    static let device6 = IPEndpoint(address: IPAddress(parsing: "fd00::2")!, port: 40_001)
    static let server6 = IPEndpoint(address: IPAddress(parsing: "fd00:1::2")!, port: 5_353)

    @Test("IPv4: type 3 code 3 from the server to the device, the datagram quoted whole when small, checksums good to tshark")
    func ipv4() throws {
        let sent = try PacketEmitter.udp(source: Self.device4, destination: Self.server4, payload: Data("query".utf8))
        let answer = try PacketEmitter.portUnreachable(from: Self.server4.address, to: Self.device4.address, quoting: sent)
        // By hand: a 20-byte IP header, the 8-byte ICMP header, then the 33-byte datagram.
        #expect(answer.count == 20 + 8 + sent.count)
        #expect(answer[9] == 1 && answer[20] == 3 && answer[21] == 3)
        #expect(answer.suffix(sent.count) == sent)
        let frame = try #require(try Self.tshark(answer).first)
        #expect(frame["ip.src"] == ["198.19.0.2", "198.18.0.2"])    // outer, then the quoted header
        #expect(frame["ip.dst"] == ["198.18.0.2", "198.19.0.2"])
        #expect(frame["icmp.type"] == ["3"] && frame["icmp.code"] == ["3"])
        #expect(frame["icmp.checksum.status"] == ["1"] && frame["ip.checksum.status"]?.first == "1")
        #expect(frame["udp.srcport"] == ["40000"] && frame["udp.dstport"] == ["5353"])
        #expect(frame["_ws.malformed"] == nil)
    }

    @Test("IPv6: type 1 code 4, the checksum over the pseudo-header good to tshark, the quote cut to keep the whole within 1 280 bytes")
    func ipv6() throws {
        let sent = try PacketEmitter.udp(source: Self.device6, destination: Self.server6, payload: Data(repeating: 0x61, count: 1_400))
        let answer = try PacketEmitter.portUnreachable(from: Self.server6.address, to: Self.device6.address, quoting: sent)
        #expect(answer.count == 1_280)
        #expect(answer[6] == 58 && answer[40] == 1 && answer[41] == 4)
        #expect(answer.suffix(from: 48) == sent.prefix(1_280 - 48))
        let frame = try #require(try Self.tshark(answer).first)
        #expect(frame["ipv6.src"]?.first == "fd00:1::2" && frame["ipv6.dst"]?.first == "fd00::2")
        #expect(frame["icmpv6.type"] == ["1"] && frame["icmpv6.code"] == ["4"])
        #expect(frame["icmpv6.checksum.status"] == ["1"])
        #expect(frame["udp.srcport"] == ["40001"] && frame["udp.dstport"] == ["5353"])
    }

    @Test("a quote of a large IPv4 datagram stops where the whole answer reaches 576 bytes")
    func ipv4QuoteLimit() throws {
        let sent = try PacketEmitter.udp(source: Self.device4, destination: Self.server4, payload: Data(count: 2_000))
        let answer = try PacketEmitter.portUnreachable(from: Self.server4.address, to: Self.device4.address, quoting: sent)
        #expect(answer.count == 576)
        #expect(answer.suffix(from: 28) == sent.prefix(548))
    }

    /// tshark's fields of the one datagram, written as a capture.
    static func tshark(_ datagram: Data) throws -> [[String: [String]]] {
        let directory = TemporaryDirectory()
        let file = directory.url.appendingPathComponent("unreachable.pcap")
        var bytes = Data()
        // The classic pcap header (raw IP, link type 101) and one record, by hand.
        func le32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        func le16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        le32(0xa1b2_c3d4); le16(2); le16(4); le32(0); le32(0); le32(65_535); le32(101)
        le32(0); le32(0); le32(UInt32(datagram.count)); le32(UInt32(datagram.count))
        bytes.append(datagram)
        try bytes.write(to: file)
        return try Tshark.fields(["ip.src", "ip.dst", "ipv6.src", "ipv6.dst", "icmp.type", "icmp.code", "icmp.checksum.status",
                                  "ip.checksum.status", "icmpv6.type", "icmpv6.code", "icmpv6.checksum.status",
                                  "udp.srcport", "udp.dstport", "_ws.malformed"],
                                 of: file, options: ["-o", "ip.check_checksum:TRUE", "--disable-protocol", "mdns"])
    }
}
