import Fixtures
import Foundation
import TestSupport
import Testing
@testable import Shared

/// tshark reads what `PcapWriter` wrote and `PacketEmitter` built, and must agree with
/// `PacketParser` on every field both extract, record by record.
@Suite(.serialized) struct TsharkOracleTests {
    static let fields = [
        "frame.number", "frame.cap_len", "frame.len", "ip.src", "ip.dst", "ipv6.src", "ipv6.dst",
        "tcp.srcport", "tcp.dstport", "tcp.seq_raw", "tcp.ack_raw", "tcp.flags", "tcp.window_size_value",
        "udp.srcport", "udp.dstport", "udp.length", "icmp.type", "icmpv6.type",
        "ip.checksum.status", "tcp.checksum.status", "udp.checksum.status", "icmp.checksum.status",
        "icmpv6.checksum.status", "_ws.expert.severity", "_ws.malformed",
    ]
    static let checksumOptions = ["-o", "tcp.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE",
                                  "-o", "ip.check_checksum:TRUE"]
        // The synthetic payloads are random bytes on well-known ports: the application dissectors
        // would call them malformed. This oracle judges the IP and transport layers only.
        + ["dns", "mdns", "ntp", "tls", "quic", "gquic", "http", "http2", "ssh", "dtls"].flatMap { ["--disable-protocol", $0] }
    /// Wireshark's PI_WARN; PI_ERROR is above it.
    static let expertWarning = 0x0060_0000
    static let checksumGood = "1"

    /// Datagrams no honest sender emits, each broken in a different way.
    static let malformed: [[UInt8]] = [
        GoldenVectors.ipv4TCP.setting([0: 0x55]),                               // version 5
        GoldenVectors.ipv4TCP.setting([3: 64, 10: 0x6a, 11: 0x9c]),             // lying length, IP checksum still right
        GoldenVectors.ipv4TCP.setting([32: 0x40]),                              // TCP data offset 16
        GoldenVectors.ipv6UDP.setting([45: 4]),                                 // UDP length 4 < 8
        [0x60, 0x00, 0x00],
    ]

    @Test func tsharkAgreesWithOurParserOnEveryRecordWeWrite() async throws {
        let directory = TemporaryDirectory()
        let writer = try PcapWriter(config: .init(directory: directory.url))
        var packets: [[UInt8]] = GoldenVectors.all.map(\.bytes)
        var traffic = SyntheticTraffic(seed: 2026)
        for kind in SyntheticTraffic.Kind.allCases {
            for _ in 0..<40 { packets.append([UInt8](traffic.next(kind).bytes)) }
        }
        packets += Self.malformed
        let start = MonotonicAnchor.now().wallClockNanosecondsSince1970
        for (index, packet) in packets.enumerated() {
            try await writer.write(packet: Data(packet), originalLength: packet.count, timestamp: start + Int64(index) * 1_000)
        }
        // A second file at the metadata snaplen: big packets are cut at 128 bytes.
        try await writer.setSnaplen(CaptureDetail.metadataOnly.snaplen)
        var truncated: [[UInt8]] = []
        for kind in [SyntheticTraffic.Kind.tcp4, .tcp6, .udp4, .udp6] {
            while truncated.count < 12 {
                let bytes = [UInt8](traffic.next(kind).bytes)
                if bytes.count > 200 { truncated.append(bytes); break }
            }
        }
        for packet in truncated {
            try await writer.write(packet: Data(packet), originalLength: packet.count, timestamp: start)
        }
        try await writer.close()
        let files = await writer.captureFiles()
        #expect(files.count == 2)

        let full = try compare(file: files[0])
        #expect(full.parsed == packets.count - Self.malformed.count)
        #expect(full.refused == Self.malformed.count)
        let cut = try compare(file: files[1])
        #expect(cut.parsed == truncated.count && cut.truncated == truncated.count)
    }

    /// Reads `file` with both parsers and checks every record; returns what it saw.
    private func compare(file: URL) throws -> (parsed: Int, refused: Int, truncated: Int) {
        let frames = try Tshark.fields(Self.fields, of: file, options: Self.checksumOptions)
        var records: [(originalLength: Int, bytes: [UInt8])] = []
        try PcapFileReader(path: file.path).forEachRecord { (record) throws(Never) in
            records.append((record.originalLength, Array(record.bytes)))
        }
        #expect(frames.count == records.count)
        var counts = (parsed: 0, refused: 0, truncated: 0)
        for (frame, record) in zip(frames, records) {
            let number = frame["frame.number"]?.first ?? "?"
            #expect(frame["frame.cap_len"]?.first == String(record.bytes.count), "frame \(number)")
            #expect(frame["frame.len"]?.first == String(record.originalLength), "frame \(number)")
            let severities = (frame["_ws.expert.severity"] ?? []).compactMap { Int($0) }
            let parsed = record.bytes.withUnsafeBytes { raw in
                Result { () throws(PacketParseError) in try PacketParser.parse(raw, originalLength: record.originalLength) }
            }
            guard case let .success(packet) = parsed else {
                // Refused by us: tshark must flag it too, or not read it as IP at all.
                counts.refused += 1
                let readAsIP = frame["ip.src"] != nil || frame["ipv6.src"] != nil
                #expect(frame["_ws.malformed"] != nil || severities.contains { $0 >= Self.expertWarning } || !readAsIP,
                        "frame \(number): we refused it, tshark saw nothing wrong")
                continue
            }
            counts.parsed += 1
            if packet.isTruncated { counts.truncated += 1 }
            #expect(packet.capturedLength == record.bytes.count && packet.originalLength == record.originalLength)
            #expect(packet.isTruncated == (record.bytes.count < record.originalLength), "frame \(number)")
            let family = packet.ip.version == .v4 ? "ip" : "ipv6"
            #expect(frame["\(family).src"]?.first == packet.ip.source.description, "frame \(number)")
            #expect(frame["\(family).dst"]?.first == packet.ip.destination.description, "frame \(number)")
            if let tcp = packet.tcp {
                #expect(frame["tcp.srcport"]?.first == String(tcp.sourcePort), "frame \(number)")
                #expect(frame["tcp.dstport"]?.first == String(tcp.destinationPort), "frame \(number)")
                #expect(frame["tcp.seq_raw"]?.first == String(tcp.sequence), "frame \(number)")
                #expect(frame["tcp.ack_raw"]?.first == String(tcp.acknowledgment), "frame \(number)")
                #expect(frame["tcp.flags"]?.first.flatMap { Int($0.dropFirst(2), radix: 16) } == Int(tcp.flags.rawValue),
                        "frame \(number)")
                #expect(frame["tcp.window_size_value"]?.first == String(tcp.windowSize), "frame \(number)")
            } else {
                #expect(frame["tcp.srcport"] == nil || packet.ip.fragment != nil, "frame \(number)")
            }
            if let udp = packet.udp {
                #expect(frame["udp.srcport"]?.first == String(udp.sourcePort), "frame \(number)")
                #expect(frame["udp.dstport"]?.first == String(udp.destinationPort), "frame \(number)")
                #expect(frame["udp.length"]?.first == String(udp.length), "frame \(number)")
            }
            if let icmp = packet.icmp {
                let key = packet.ip.proto == .icmp ? "icmp.type" : "icmpv6.type"
                #expect(frame[key]?.first == String(icmp.type), "frame \(number)")
            }
            // Every checksum tshark could verify is correct (a cut record cannot be verified).
            if !packet.isTruncated {
                for field in ["ip", "tcp", "udp", "icmp", "icmpv6"].map({ "\($0).checksum.status" }) {
                    for status in frame[field] ?? [] {
                        #expect(status == Self.checksumGood, "frame \(number): \(field) = \(status)")
                    }
                }
                #expect(!severities.contains { $0 > Self.expertWarning }, "frame \(number): tshark reports an error")
            }
        }
        return counts
    }
}
