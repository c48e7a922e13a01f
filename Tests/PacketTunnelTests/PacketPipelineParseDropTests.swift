import Foundation
import Testing
import Shared
@testable import PacketTunnel

/// One malformed datagram of each `PacketParseError` kind, through both ways into the pipeline:
/// each lands in its own counter, named as the error's `kind`, and the old total is their sum.
@Suite struct PacketPipelineParseDropTests {
    /// Sets `bytes` at their offsets in `datagram`.
    static func setting(_ datagram: Data, _ bytes: [Int: UInt8]) -> Data {
        var copy = datagram
        for (offset, byte) in bytes { copy[copy.startIndex + offset] = byte }
        return copy
    }

    /// An IPv6 UDP datagram from the device whose next header is a chain of `count` 8-byte
    /// destination-options headers (the last with no next header).
    static func extensionChain(count: Int) -> Data {
        var bytes = Data(PipelineBench.tcp(.outbound, v6: true).prefix(40))
        bytes[6] = 60
        let length = 8 * count
        (bytes[4], bytes[5]) = (UInt8(length >> 8), UInt8(length & 0xFF))
        for index in 0..<count { bytes += [index == count - 1 ? 59 : 60, 0, 1, 4, 0, 0, 0, 0] }
        return bytes
    }

    /// A datagram of each kind, from packets that parse but for the bytes changed.
    static let malformed: [(kind: String, datagram: Data)] = {
        let udp = PipelineBench.udp(.outbound)  // 20 + 8 + 20 bytes
        let tcp = PipelineBench.tcp(.outbound)  // 20 + 20 bytes
        return [
            ("tooShort", Data(udp.prefix(12))),
            ("unsupportedVersion", setting(udp, [0: 0x55])),
            ("badHeaderLength", setting(udp, [0: 0x44])),
            ("totalLengthBeyondBuffer", setting(udp, [3: 0x40])),
            ("extensionHeaderTruncated", setting(extensionChain(count: 1), [41: 200])),
            ("extensionChainTooLong", extensionChain(count: PacketParser.extensionHeaderLimit + 2)),
            ("badDataOffset", setting(tcp, [32: 0x40])),
            ("truncatedL4", setting(Data(udp.prefix(24)), [3: 24])),
            ("badUDPLength", setting(udp, [25: 7])),
        ]
    }()

    /// The counters that are not zero, by JSON name: the test's one look at the encoding, so a
    /// counter named otherwise than its error's `kind` fails.
    static func nonZero(_ drops: ParseDropStats) throws -> [String: UInt64] {
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(drops)) as! [String: UInt64]
        return object.filter { $0.value != 0 }
    }

    @Test("every kind of malformed datagram from the device is counted under its own reason")
    func everyKindFromTheDeviceIsCountedApart() throws {
        #expect(Self.malformed.count == 9, "a PacketParseError case has no datagram here")
        for (kind, datagram) in Self.malformed {
            let bench = PipelineBench()
            let disposition = bench.pipeline.handle(datagram, now: 1)
            guard case let .dropped(.parseFailed(error)) = disposition else {
                Issue.record("\(kind): \(disposition)")
                continue
            }
            #expect(error.kind == kind)
            let stats = bench.pipeline.stats
            #expect(try Self.nonZero(stats.parseDrops) == [kind: 1])
            #expect(stats.packetsDroppedUnparseable == 1 && stats.packetsHandled == 1)
            #expect(bench.feed.published.isEmpty && bench.capture.records.isEmpty)
        }
    }

    @Test("a capture's malformed records are counted by reason too, and the total is their sum")
    func capturedDropsAreCountedByReasonAndSummed() throws {
        let bench = PipelineBench()
        for (_, datagram) in Self.malformed + Self.malformed.prefix(2) {
            let outcome = datagram.withUnsafeBytes {
                bench.pipeline.handle(captured: $0, originalLength: datagram.count, now: 1) { _, _ in }
            }
            #expect(outcome == .dropped)
        }
        let stats = bench.pipeline.stats
        var expected = Dictionary(uniqueKeysWithValues: Self.malformed.map { ($0.kind, UInt64(1)) })
        expected["tooShort"] = 2
        expected["unsupportedVersion"] = 2
        #expect(try Self.nonZero(stats.parseDrops) == expected)
        #expect(stats.packetsDroppedUnparseable == 11 && stats.packetsHandled == 11)
    }
}
