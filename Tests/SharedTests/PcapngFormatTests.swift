import Foundation
import Testing
import TestSupport
@testable import Shared

@Suite struct PcapngFormatTests {
    func le32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }

    @Test("the Section Header Block is byte for byte the spec's, with the application padded")
    func sectionHeader() throws {
        var out: [UInt8] = []
        try PcapngFormat.appendSectionHeader(application: nil, to: &out)
        #expect(out == [0x0A, 0x0D, 0x0D, 0x0A, 28, 0, 0, 0, 0x4D, 0x3C, 0x2B, 0x1A, 1, 0, 0, 0]
                + [UInt8](repeating: 0xFF, count: 8) + [28, 0, 0, 0])
        out = []
        try PcapngFormat.appendSectionHeader(application: "tv", to: &out)
        // + option 4, length 2, "tv" padded to 4, then opt_endofopt
        #expect(out.count == 28 + 8 + 4)
        #expect(Array(out[24..<36]) == [4, 0, 2, 0, 0x74, 0x76, 0, 0, 0, 0, 0, 0])
        #expect(Array(out[4..<8]) == le32(40) && Array(out.suffix(4)) == le32(40))
    }

    @Test("the Interface Description Block says raw IP, the snaplen and microseconds")
    func interfaceDescription() {
        var out: [UInt8] = []
        PcapngFormat.appendInterfaceDescription(snaplen: 262_144, to: &out)
        #expect(out == [1, 0, 0, 0, 32, 0, 0, 0, 101, 0, 0, 0] + le32(262_144)
                + [9, 0, 1, 0, 6, 0, 0, 0] + [0, 0, 0, 0] + [32, 0, 0, 0])
    }

    @Test("an Enhanced Packet Block pads every length to 4, splits a timestamp above 2^32, and carries comment and direction")
    func enhancedPacket() throws {
        for length in 0...9 {
            var out: [UInt8] = []
            let data = [UInt8](repeating: 0xAB, count: length)
            try PcapngFormat.appendEnhancedPacket(data, originalLength: length + 100, microsecondsSince1970: 0x1_2345_6789,
                                                  options: [], to: &out)
            let padded = (length + 3) / 4 * 4
            #expect(out.count == 32 + padded)
            #expect(Array(out[0..<4]) == le32(6) && Array(out[4..<8]) == le32(UInt32(32 + padded)))
            #expect(Array(out[12..<16]) == le32(1) && Array(out[16..<20]) == le32(0x2345_6789))
            #expect(Array(out[20..<24]) == le32(UInt32(length)) && Array(out[24..<28]) == le32(UInt32(length + 100)))
            #expect(Array(out[28..<28 + length]) == data)
            #expect(out[28 + length..<28 + padded].allSatisfy { $0 == 0 })
            #expect(Array(out.suffix(4)) == le32(UInt32(32 + padded)))
        }
        var out: [UInt8] = []
        try PcapngFormat.appendEnhancedPacket([1, 2, 3, 4], originalLength: 4, microsecondsSince1970: 5,
                                              options: [.comment("flow=12 é"), .flags(.inbound)], to: &out)
        let comment = Array("flow=12 é".utf8)   // 10 bytes: UTF-8, length unpadded
        #expect(Array(out[32..<36]) == [1, 0, UInt8(comment.count), 0] && Array(out[36..<46]) == comment && out[46] == 0 && out[47] == 0)
        #expect(Array(out[48..<56]) == [2, 0, 4, 0] + le32(1))
        #expect(Array(out[56..<60]) == [0, 0, 0, 0])
        #expect(PcapngFormat.packetFlags(.outbound) == 2 && PcapngFormat.packetFlags(.inbound) == 1)
    }

    @Test("an option longer than 65 535 bytes is refused")
    func optionTooLong() {
        var out: [UInt8] = []
        #expect(throws: PcapngFormat.FormatError.optionTooLong(code: 1, byteCount: 70_000)) {
            try PcapngFormat.appendEnhancedPacket([0], originalLength: 1, microsecondsSince1970: 0,
                                                  options: [.comment(String(repeating: "x", count: 70_000))], to: &out)
        }
        #expect(out.isEmpty)
    }

    @Test("the blocks read back as one file: tshark sees the packets, their comments and directions")
    func tsharkReadsThem() throws {
        let directory = TemporaryDirectory("tv-pcapng")
        var out: [UInt8] = []
        try PcapngFormat.appendSectionHeader(application: "tunnelvision test", to: &out)
        PcapngFormat.appendInterfaceDescription(snaplen: 262_144, to: &out)
        let packet = try PacketEmitter.udp(source: IPEndpoint(address: IPAddress(parsing: "198.18.0.2")!, port: 5000),
                                           destination: IPEndpoint(address: IPAddress(parsing: "198.18.0.1")!, port: 6000),
                                           payload: Data([1, 2, 3]))
        try PcapngFormat.appendEnhancedPacket(packet, originalLength: packet.count, microsecondsSince1970: 1_796_005_130_000_001,
                                              options: [.comment("flow=7 direction=sent"), .flags(.outbound)], to: &out)
        try PcapngFormat.appendEnhancedPacket(packet, originalLength: packet.count, microsecondsSince1970: 1_796_005_130_500_000,
                                              options: [.comment("flow=7 direction=received"), .flags(.inbound)], to: &out)
        let file = directory.url.appendingPathComponent("two.pcapng")
        try Data(out).write(to: file)
        let frames = try Tshark.fields(["frame.comment", "frame.packet_flags_direction", "udp.srcport", "frame.time_epoch"], of: file)
        #expect(frames.count == 2)
        #expect(frames.first?["frame.comment"] == ["flow=7 direction=sent"])
        #expect(frames.last?["frame.comment"] == ["flow=7 direction=received"])
        func direction(_ frame: [String: [String]]?) -> UInt32? {
            frame?["frame.packet_flags_direction"]?.first.flatMap { UInt32($0.replacingOccurrences(of: "0x", with: ""), radix: 16) }
        }
        #expect(direction(frames.first) == 2 && direction(frames.last) == 1)   // outbound, inbound
        #expect(frames.first?["udp.srcport"] == ["5000"])
        #expect(frames.first?["frame.time_epoch"]?.first?.hasPrefix("1796005130.000001") == true)
    }
}
