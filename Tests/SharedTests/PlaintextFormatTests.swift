import Foundation
import Testing
@testable import Shared

@Suite struct PlaintextFormatTests {
    @Test("the global header is 16 bytes exactly as the spec lays them out, little-endian")
    func globalHeaderGolden() throws {
        let header = PlaintextFormat.GlobalHeader(maxRecordBytes: 65_536)
        // magic 0x54565054 LE · major 1 · minor 0 · max_record_bytes 0x00010000 · reserved 0
        #expect(header.bytes == [0x54, 0x50, 0x56, 0x54, 0x01, 0x00, 0x00, 0x00,
                                 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00])
        #expect(try PlaintextFormat.GlobalHeader(parsing: Data(header.bytes)) == header)
    }

    @Test("the record header is 32 bytes exactly, with a signed negative timestamp and a truncation")
    func recordHeaderGolden() throws {
        let header = PlaintextFormat.RecordHeader(stream: 0x0102_0304_0506_0708, timestamp: -1, storedLength: 5,
                                                  originalLength: 9, direction: .inbound)
        #expect(header.bytes == [0x52, 0x50, 0x56, 0x54,
                                 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
                                 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                 0x05, 0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00,
                                 0x01, 0x00, 0x00, 0x00])
        let parsed = try PlaintextFormat.RecordHeader(parsing: Data(header.bytes), offset: 16)
        #expect(parsed == header)
        #expect(parsed.timestamp == -1)
        #expect(parsed.isTruncated)
    }

    @Test("a record round-trips an instant before 1970 and one in 2026")
    func roundTrips() throws {
        for stamp: Int64 in [-86_400_000_000_123, 1_796_005_130_123_456_789, 0] {
            let header = PlaintextFormat.RecordHeader(stream: 7, timestamp: stamp, storedLength: 3, originalLength: 3, direction: .outbound)
            let back = try PlaintextFormat.RecordHeader(parsing: Data(header.bytes), offset: 48)
            #expect(back.timestamp == stamp)
            #expect(!back.isTruncated)
        }
    }

    @Test("the five rejections: short data, foreign magic, another major version, not a record start, unknown direction")
    func fiveRejections() throws {
        #expect(throws: PlaintextFormat.FormatError.shortData(expected: 16, actual: 3)) {
            try PlaintextFormat.GlobalHeader(parsing: Data([0x54, 0x50, 0x56]))
        }
        #expect(throws: PlaintextFormat.FormatError.shortData(expected: 32, actual: 31)) {
            try PlaintextFormat.RecordHeader(parsing: Data(count: 31), offset: 16)
        }
        var pcap = PlaintextFormat.GlobalHeader(maxRecordBytes: 1).bytes
        pcap.replaceSubrange(0..<4, with: [0xD4, 0xC3, 0xB2, 0xA1])
        #expect(throws: PlaintextFormat.FormatError.foreignMagic(0xA1B2_C3D4)) {
            try PlaintextFormat.GlobalHeader(parsing: Data(pcap))
        }
        var major2 = PlaintextFormat.GlobalHeader(maxRecordBytes: 1).bytes
        major2[4] = 2
        #expect(throws: PlaintextFormat.FormatError.unsupportedMajorVersion(2)) {
            try PlaintextFormat.GlobalHeader(parsing: Data(major2))
        }
        let record = PlaintextFormat.RecordHeader(stream: 1, timestamp: 0, storedLength: 0, originalLength: 0, direction: .outbound).bytes
        #expect(throws: PlaintextFormat.FormatError.notARecordStart(offset: 8)) {
            try PlaintextFormat.RecordHeader(parsing: Data(record), offset: 8)
        }
        var shifted = record
        shifted[0] = 0x53
        #expect(throws: PlaintextFormat.FormatError.notARecordStart(offset: 40)) {
            try PlaintextFormat.RecordHeader(parsing: Data(shifted), offset: 40)
        }
        var sideways = record
        sideways[28] = 2
        #expect(throws: PlaintextFormat.FormatError.unknownDirection(2)) {
            try PlaintextFormat.RecordHeader(parsing: Data(sideways), offset: 16)
        }
    }

    @Test("a file name carries its sequence and UTC start; foreign names, a .pcap among them, are not ours")
    func fileNames() {
        let name = PlaintextFileName.make(sequence: 42, nanosecondsSince1970: 1_796_005_130_000_000_000)
        #expect(name == "plaintext-000042-20261130-021850.tvpt")
        #expect(PlaintextFileName.sequence(in: name) == 42)
        #expect(PlaintextFileName.startSecondsSince1970(in: name) == 1_796_005_130)
        for foreign in ["plaintext-000042-20261130-021850.pcap", "tunnelvision-000042-20261130-021850.pcap",
                        "tunnelvision-000042-20261130-021850.tvpt", "plaintext-42.tvpt", "plaintext-00004x-20261130-021850.tvpt"] {
            #expect(PlaintextFileName.sequence(in: foreign) == nil, "\(foreign)")
        }
        #expect(CaptureFileName.sequence(in: name) == nil)
    }
}
