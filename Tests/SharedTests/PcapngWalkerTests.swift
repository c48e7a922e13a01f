import Testing
@testable import Shared

/// The pcapng walker over bytes built here, block by block: both byte orders, every packet block,
/// blocks skipped by their length, and every way a block can lie reported at that block.
@Suite struct PcapngWalkerTests {
    /// A block of `type` around `body`, padded to 4, in `bigEndian` order or little.
    static func block(_ type: UInt32, _ body: [UInt8], bigEndian: Bool = false) -> [UInt8] {
        let padded = body + [UInt8](repeating: 0, count: (4 - body.count % 4) % 4)
        let length = UInt32(padded.count + 12)
        return word(type, bigEndian) + word(length, bigEndian) + padded + word(length, bigEndian)
    }
    static func word(_ value: UInt32, _ bigEndian: Bool) -> [UInt8] {
        withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian, Array.init)
    }
    static func half(_ value: UInt16, _ bigEndian: Bool) -> [UInt8] {
        withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian, Array.init)
    }
    static func section(bigEndian: Bool = false) -> [UInt8] {
        block(PcapngBlock.sectionHeader, word(PcapngBlock.byteOrderMagic, bigEndian) + half(1, bigEndian) + half(0, bigEndian)
              + [UInt8](repeating: 0xFF, count: 8), bigEndian: bigEndian)
    }
    static func interface(linkType: UInt16, snaplen: UInt32 = 0, resolution: UInt8? = nil, bigEndian: Bool = false) -> [UInt8] {
        var body = half(linkType, bigEndian) + half(0, bigEndian) + word(snaplen, bigEndian)
        if let resolution {
            body += half(PcapngBlock.optionTimestampResolution, bigEndian) + half(1, bigEndian) + [resolution, 0, 0, 0]
            body += half(0, bigEndian) + half(0, bigEndian)
        }
        return block(PcapngBlock.interfaceDescription, body, bigEndian: bigEndian)
    }
    static func enhanced(interface: UInt32, ticks: UInt64, _ data: [UInt8], original: UInt32? = nil, bigEndian: Bool = false) -> [UInt8] {
        block(PcapngBlock.enhancedPacket, word(interface, bigEndian) + word(UInt32(ticks >> 32), bigEndian)
              + word(UInt32(truncatingIfNeeded: ticks), bigEndian) + word(UInt32(data.count), bigEndian)
              + word(original ?? UInt32(data.count), bigEndian) + data, bigEndian: bigEndian)
    }

    /// Every block of `file`: packets with their bytes and instant, or the type skipped.
    static func walk(_ file: [UInt8]) -> (packets: [(interface: Int, bytes: [UInt8], original: Int, nanoseconds: Int64?)],
                                           skipped: [UInt32], damage: PcapngDamage?, at: Int) {
        var walker = PcapngWalker()
        var packets: [(interface: Int, bytes: [UInt8], original: Int, nanoseconds: Int64?)] = []
        var skipped: [UInt32] = []
        var offset = 0
        return file.withUnsafeBytes { bytes in
            while offset < bytes.count {
                do throws(PcapngDamage) {
                    let step = try walker.step(in: bytes, at: offset)
                    switch step.block {
                    case let .packet(packet):
                        let data = Array(bytes[packet.dataOffset..<(packet.dataOffset + packet.capturedLength)])
                        let clock = walker.interfaces[packet.interface]
                        packets.append((packet.interface, data, packet.originalLength, packet.ticks.map(clock.nanosecondsSince1970(ticks:))))
                    case let .other(type): skipped.append(type)
                    }
                    offset = step.next
                } catch {
                    return (packets, skipped, error, offset)
                }
            }
            return (packets, skipped, nil, offset)
        }
    }

    @Test("sections in both byte orders, each with its own interfaces, link types and clocks")
    func sectionsInBothByteOrders() {
        let file = Self.section(bigEndian: true)
            + Self.interface(linkType: 101, resolution: 9, bigEndian: true)
            + Self.interface(linkType: 1, snaplen: 65535, resolution: 0x80 | 20, bigEndian: true)
            + Self.enhanced(interface: 1, ticks: 3 << 20 | 1 << 19, [1, 2, 3], original: 60, bigEndian: true)
            + Self.enhanced(interface: 0, ticks: 1_796_000_000_123_456_789, [0x45], bigEndian: true)
            + Self.section()
            + Self.interface(linkType: 276)
            + Self.enhanced(interface: 0, ticks: 1_796_000_000_000_321, [9, 9])
        let walked = Self.walk(file)
        #expect(walked.damage == nil && walked.at == file.count)
        #expect(walked.packets.map(\.interface) == [1, 0, 0])
        #expect(walked.packets.map(\.bytes) == [[1, 2, 3], [0x45], [9, 9]])
        #expect(walked.packets.map(\.original) == [60, 1, 2])
        // 2^-20 ticks: 3.5 s; 10^-9: as written; no option: microseconds.
        #expect(walked.packets.map(\.nanoseconds) == [3_500_000_000, 1_796_000_000_123_456_789, 1_796_000_000_000_321_000])
    }

    @Test("simple and obsolete packet blocks are read, every other block skipped by its length")
    func everyPacketBlockAndSkippedBlocks() {
        let obsolete = Self.block(PcapngBlock.obsoletePacket, Self.half(0, false) + Self.half(0, false) + Self.word(0, false)
                                  + Self.word(2_000_000, false) + Self.word(2, false) + Self.word(2, false) + [7, 7])
        let simple = Self.block(PcapngBlock.simplePacket, Self.word(5, false) + [1, 2, 3, 4, 5])
        let file = Self.section() + Self.interface(linkType: 101, snaplen: 4)
            + Self.block(4, [0, 0, 0, 0]) + Self.block(5, [UInt8](repeating: 0, count: 12)) + obsolete
            + Self.block(10, [1, 2, 3, 4, 5, 6, 7, 8]) + Self.block(0x0000_0BAD, [0, 0, 0x7E, 0xD9, 1]) + simple
        let walked = Self.walk(file)
        #expect(walked.damage == nil)
        #expect(walked.skipped == [PcapngBlock.sectionHeader, PcapngBlock.interfaceDescription, 4, 5, 10, 0x0BAD])
        #expect(walked.packets.map(\.bytes) == [[7, 7], [1, 2, 3, 4]])   // the simple one cut by the snaplen
        #expect(walked.packets.map(\.original) == [2, 5])
        #expect(walked.packets.map(\.nanoseconds) == [2_000_000_000, nil])
    }

    @Test("each lie a block can tell is damage at that block, before anything is read from beyond it")
    func damageIsReportedAtItsBlock() {
        let opening = Self.section() + Self.interface(linkType: 101)
        let packet = Self.enhanced(interface: 0, ticks: 0, [1, 2, 3, 4])
        var tooLong = packet
        tooLong[4] = 200
        var disagreeing = packet
        disagreeing[packet.count - 4] = 40
        var capturedTooMuch = packet
        capturedTooMuch[20] = 9
        var badOrder = Self.section()
        badOrder[8] = 0x11
        var notMultiple = packet
        notMultiple[4] = 33
        let overrun = Self.block(PcapngBlock.interfaceDescription, Self.half(1, false) + Self.half(0, false) + Self.word(0, false)
                                 + Self.half(2, false) + Self.half(200, false) + [0, 0, 0, 0])
        let cases: [([UInt8], PcapngDamage)] = [
            (opening + tooLong, .cutShort(length: 200, available: packet.count)),
            (opening + disagreeing, .lengthsDisagree(leading: UInt32(packet.count), trailing: 40)),
            (opening + capturedTooMuch, .capturedBeyondBlock(captured: 9, room: 4)),
            (opening + notMultiple, .impossibleLength(blockType: PcapngBlock.enhancedPacket, length: 33)),
            (opening + Self.enhanced(interface: 3, ticks: 0, [1]), .unknownInterface(id: 3, described: 1)),
            (badOrder, .unknownByteOrder(0x1A2B_3C11)),
            (Self.section() + overrun, .optionOverrun(code: 2, length: 200)),
            (Self.section() + Self.interface(linkType: 1, resolution: 20), .impossibleTimestampResolution(20)),
            (opening + packet.prefix(6), .cutShort(length: 12, available: 6)),
        ]
        for (file, damage) in cases {
            let walked = Self.walk(file)
            #expect(walked.damage == damage)
            #expect(walked.packets.isEmpty)
        }
    }

    @Test("timestamps: decimal and binary resolutions to nanoseconds, offsets added, extremes clamped")
    func timestampResolutions() {
        func at(_ resolution: UInt8, _ ticks: UInt64, offset: Int64 = 0) -> Int64? {
            PcapngTimestampResolution(optionByte: resolution).map {
                PcapngInterface(linkType: 1, snaplen: 0, timestampResolution: $0, timestampOffsetSeconds: offset)
                    .nanosecondsSince1970(ticks: ticks)
            }
        }
        #expect(at(0, 7) == 7_000_000_000)
        #expect(at(3, 1_500) == 1_500_000_000)
        #expect(at(12, 1_000_000_000_001) == 1_000_000_000)
        #expect(at(0x80, 2) == 2_000_000_000)
        #expect(at(0x80 | 1, 3) == 1_500_000_000)
        #expect(at(0x80 | 63, 1 << 62) == 500_000_000)
        #expect(at(6, 1, offset: 10) == 10_000_001_000)
        #expect(at(0, .max) == .max)
        #expect(at(20, 1) == nil && at(0x80 | 64, 1) == nil)
        #expect(PcapngTimestampResolution(optionByte: 9)?.isFinerThanMicroseconds == true)
        #expect(PcapngTimestampResolution(optionByte: 6)?.isFinerThanMicroseconds == false)
    }
}
