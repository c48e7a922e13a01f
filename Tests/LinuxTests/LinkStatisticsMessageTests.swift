import Fixtures
import Foundation
@testable import Linux
import Shared
import Testing

/// The rtnetlink request and answer for one interface's statistics, over bytes built by hand in
/// the kernel's layout (linux/netlink.h, linux/rtnetlink.h, linux/if_link.h).
@Suite struct LinkStatisticsMessageTests {
    static func bytes<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }

    static func attribute(type: UInt16, _ value: [UInt8]) -> [UInt8] {
        let length = 4 + value.count
        return bytes(UInt16(length)) + bytes(type) + value + [UInt8](repeating: 0, count: LinkStatisticsMessage.aligned(length) - length)
    }

    /// An RTM_NEWLINK answer to `sequence` with `attributes` after the interface header.
    static func newLink(sequence: UInt32, attributes: [[UInt8]]) -> [UInt8] {
        header(length: 32 + attributes.reduce(0) { $0 + $1.count }, type: 16, sequence: sequence)
            + [UInt8](repeating: 0, count: 16) + attributes.flatMap { $0 }
    }

    static func header(length: Int, type: UInt16, sequence: UInt32) -> [UInt8] {
        var header = bytes(UInt32(length))
        header += bytes(type)
        header += bytes(UInt16(0))
        header += bytes(sequence)
        header += bytes(UInt32(0))
        return header
    }

    /// `struct rtnl_link_stats64` with tx_packets and tx_dropped set, the rest counting up from 100.
    static func stats64(txPackets: UInt64, txDropped: UInt64) -> [UInt8] {
        var fields = (0..<24).map { UInt64(100 + $0) }
        fields[1] = txPackets
        fields[7] = txDropped
        return fields.flatMap { bytes($0) }
    }

    @Test("the request is an RTM_GETLINK for the name, NUL-terminated and padded, with the lengths the kernel checks")
    func theRequest() {
        let request = LinkStatisticsMessage.request(name: "tv0", sequence: 7)
        // 16 header + 16 ifinfomsg + 4 attribute header + "tv0\0" = 40.
        #expect(request.count == 40)
        #expect(Array(request[0..<4]) == Self.bytes(UInt32(40)))
        #expect(Array(request[4..<8]) == Self.bytes(UInt16(18)) + Self.bytes(UInt16(1)))
        #expect(Array(request[8..<12]) == Self.bytes(UInt32(7)))
        #expect(request[16..<32].allSatisfy { $0 == 0 })
        #expect(Array(request[32..<40]) == Self.bytes(UInt16(8)) + Self.bytes(UInt16(3)) + Array("tv0".utf8) + [0])
        // A 15-byte name fills the attribute to 20 bytes, no padding; a longer one is cut to 15.
        #expect(LinkStatisticsMessage.request(name: "abcdefghijklmno", sequence: 1).count == 52)
        #expect(LinkStatisticsMessage.request(name: "abcdefghijklmnopq", sequence: 1).count == 52)
    }

    @Test("the answer's IFLA_STATS64 gives tx_dropped as the queue drops and tx_packets as the datagrams read, past other attributes")
    func theAnswer() throws {
        let answer = Self.newLink(sequence: 9, attributes: [Self.attribute(type: 3, Array("tv0".utf8) + [0]),
                                                              Self.attribute(type: 4, Self.bytes(UInt32(1500))),
                                                              Self.attribute(type: 23, Self.stats64(txPackets: 43_210, txDropped: 36_790))])
        let counters = try LinkStatisticsMessage.counters(in: answer, sequence: 9)
        #expect(counters == DeviceKernelCounters(queueDrops: 36_790, datagramsRead: 43_210))
        #expect(counters?.dropShare == 36_790.0 / 80_000.0)
    }

    @Test("an older kernel's 32-bit IFLA_STATS serves when there is no IFLA_STATS64; a flagged attribute type still reads")
    func theOlderStatistics() throws {
        var fields = [UInt32](repeating: 0, count: 23)
        fields[1] = 5
        fields[7] = 3
        let stats32 = fields.flatMap { Self.bytes($0) }
        let answer = Self.newLink(sequence: 1, attributes: [Self.attribute(type: 7, stats32)])
        #expect(try LinkStatisticsMessage.counters(in: answer, sequence: 1) == DeviceKernelCounters(queueDrops: 3, datagramsRead: 5))
        // NLA_F_NESTED (0x8000) on an attribute's type is a flag, not part of the type.
        let flagged = Self.newLink(sequence: 1, attributes: [Self.attribute(type: 23 | 0x8000, Self.stats64(txPackets: 1, txDropped: 2))])
        #expect(try LinkStatisticsMessage.counters(in: flagged, sequence: 1) == DeviceKernelCounters(queueDrops: 2, datagramsRead: 1))
    }

    @Test("an NLMSG_ERROR is the kernel's errno; another request's answer is skipped; no statistics is said")
    func errorsAndOtherAnswers() throws {
        let error = Self.header(length: 36, type: 2, sequence: 4) + Self.bytes(Int32(-19)) + [UInt8](repeating: 0, count: 16)
        #expect(throws: LinkStatisticsMessage.Failure.kernel(errno: 19)) { try LinkStatisticsMessage.counters(in: error, sequence: 4) }
        #expect(try LinkStatisticsMessage.counters(in: error, sequence: 5) == nil)
        let bare = Self.newLink(sequence: 2, attributes: [Self.attribute(type: 3, Array("tv0".utf8) + [0])])
        #expect(throws: LinkStatisticsMessage.Failure.noStatistics) { try LinkStatisticsMessage.counters(in: bare, sequence: 2) }
    }

    @Test("every proper prefix of an answer fails cleanly, and a seeded bit-flip run never traps")
    func truncationAndBitFlips() {
        let answer = Self.newLink(sequence: 3, attributes: [Self.attribute(type: 3, Array("tv0".utf8) + [0]),
                                                              Self.attribute(type: 23, Self.stats64(txPackets: 1, txDropped: 1))])
        for length in 0..<answer.count {
            #expect(throws: LinkStatisticsMessage.Failure.self) { try LinkStatisticsMessage.counters(in: Array(answer[0..<length]), sequence: 3) }
        }
        var random = SeededRandom(seed: 0x5EED)
        for _ in 0..<2_000 {
            var flipped = answer
            let bit = Int(random.next() % UInt64(answer.count * 8))
            flipped[bit / 8] ^= 1 << (bit % 8)
            _ = try? LinkStatisticsMessage.counters(in: flipped, sequence: 3)
        }
    }
}
