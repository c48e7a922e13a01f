import Foundation
import Testing
@testable import Shared

@Suite struct PcapFormatTests {
    @Test func theGlobalHeaderIsByteExact() {
        var bytes = [UInt8](repeating: 0xEE, count: 24)
        bytes.withUnsafeMutableBytes { PcapFormat.GlobalHeader(snaplen: 262_144).emit(into: $0) }
        #expect(bytes == [0xd4, 0xc3, 0xb2, 0xa1, 0x02, 0x00, 0x04, 0x00, 0, 0, 0, 0, 0, 0, 0, 0,
                          0x00, 0x00, 0x04, 0x00, 0x65, 0x00, 0x00, 0x00])
    }

    @Test func theRecordHeaderIsByteExactAndSplitsNanosecondsIntoMicroseconds() {
        let header = PcapFormat.RecordHeader(nanosecondsSince1970: 1_796_005_130_123_456_789, inclLen: 60, origLen: 1500)
        #expect(header.tsSec == 1_796_005_130 && header.tsFraction == 123_456)
        var bytes = [UInt8](repeating: 0, count: 16)
        bytes.withUnsafeMutableBytes { header.emit(into: $0) }
        #expect(bytes == [0x0a, 0xdd, 0x0c, 0x6b, 0x40, 0xe2, 0x01, 0x00, 60, 0, 0, 0, 0xdc, 0x05, 0, 0])
    }

    @Test func instantsBefore1970ClampToZero() {
        let header = PcapFormat.RecordHeader(nanosecondsSince1970: -5, inclLen: 0, origLen: 0)
        #expect(header.tsSec == 0 && header.tsFraction == 0)
    }

    @Test func parsingUndoesEmittingEvenFromASliceNotAtZero() throws {
        var bytes = [UInt8](repeating: 0xAA, count: 7 + 24 + 16)
        bytes.withUnsafeMutableBytes { raw in
            PcapFormat.GlobalHeader(snaplen: 128).emit(into: UnsafeMutableRawBufferPointer(rebasing: raw[7..<31]))
            PcapFormat.RecordHeader(tsSec: 1, tsFraction: 2, inclLen: 3, origLen: 4)
                .emit(into: UnsafeMutableRawBufferPointer(rebasing: raw[31...]))
        }
        try bytes.withUnsafeBytes { raw in
            let global = try PcapFormat.GlobalHeader(parsing: UnsafeRawBufferPointer(rebasing: raw[7..<31]))
            #expect(global == PcapFormat.GlobalHeader(snaplen: 128))
            let record = try PcapFormat.RecordHeader(parsing: UnsafeRawBufferPointer(rebasing: raw[31...]))
            #expect(record == PcapFormat.RecordHeader(tsSec: 1, tsFraction: 2, inclLen: 3, origLen: 4))
        }
    }

    @Test func ourReaderRefusesShortForeignAndOtherLinkTypeHeaders() {
        func parse(_ bytes: [UInt8], _ acceptance: PcapFormat.Acceptance = .ours) -> PcapFormat.FormatError? {
            bytes.withUnsafeBytes { raw -> PcapFormat.FormatError? in
                do throws(PcapFormat.FormatError) {
                    _ = try PcapFormat.GlobalHeader(parsing: raw, accepting: acceptance)
                    return nil
                } catch { return error }
            }
        }
        var good = [UInt8](repeating: 0, count: 24)
        good.withUnsafeMutableBytes { PcapFormat.GlobalHeader(snaplen: 65535).emit(into: $0) }
        #expect(parse(Array(good.prefix(23))) == .shortHeader(expected: 24, actual: 23))
        let swapped = [0xa1, 0xb2, 0xc3, 0xd4] + good[4...]
        #expect(parse(Array(swapped)) == .unknownMagic(0xd4c3_b2a1))
        var ethernet = good
        ethernet[20] = 1
        #expect(parse(ethernet) == .unsupportedLinkType(1))
        #expect(parse(ethernet, .anyRawIP) == .unsupportedLinkType(1))
        // The lenient reading used for captures made elsewhere takes the other byte order.
        var bigEndian: [UInt8] = [0xa1, 0xb2, 0xc3, 0xd4, 0, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 0, 228]
        #expect(parse(bigEndian, .anyRawIP) == nil)
        bigEndian[3] = 0x4d
        bigEndian[2] = 0x3c
        let header = bigEndian.withUnsafeBytes { try? PcapFormat.GlobalHeader(parsing: $0, accepting: .anyRawIP) }
        #expect(header?.isByteSwapped == true && header?.hasNanosecondTimestamps == true && header?.snaplen == 65535)
    }
}
