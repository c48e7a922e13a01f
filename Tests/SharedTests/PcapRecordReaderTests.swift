import Foundation
import TestSupport
import Testing
@testable import Shared

@Suite struct PcapRecordReaderTests {
    /// A capture with two records (40 and 31 bytes) at offsets 24 and 80.
    private func capture() async throws -> (TemporaryDirectory, URL) {
        let directory = TemporaryDirectory()
        let writer = try PcapWriter(config: .init(directory: directory.url, snaplen: 128), wallClock: { 0 })
        try await writer.write(packet: Data(GoldenVectors.ipv4TCP), originalLength: 40, timestamp: 0)
        try await writer.write(packet: Data(GoldenVectors.ipv4UDP), originalLength: 31, timestamp: 0)
        try await writer.close()
        return (directory, await writer.captureFiles()[0])
    }

    private func readError(_ location: CaptureLocation, in directory: URL) -> PcapReadError? {
        do { _ = try PcapRecordReader(directory: directory).read(location); return nil } catch { return error }
    }

    @Test func anOffsetInsideTheGlobalHeaderIsRefused() async throws {
        let (directory, _) = try await capture()
        #expect(readError(CaptureLocation(fileSequence: 1, recordOffset: 8), in: directory.url) == .offsetInsideGlobalHeader(offset: 8))
    }

    @Test func anOffsetPastTheEndIsRefused() async throws {
        let (directory, _) = try await capture()
        #expect(readError(CaptureLocation(fileSequence: 1, recordOffset: 127), in: directory.url)
                == .offsetPastEnd(offset: 127, fileSize: 127))
    }

    @Test func aRecordCutShortIsRefused() async throws {
        let (directory, file) = try await capture()
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 120)
        try handle.close()
        #expect(readError(CaptureLocation(fileSequence: 1, recordOffset: 80), in: directory.url)
                == .recordCutShort(offset: 80, expected: 47, available: 40))
        try FileHandle(forWritingTo: file).truncate(atOffset: 90)
        #expect(readError(CaptureLocation(fileSequence: 1, recordOffset: 80), in: directory.url)
                == .recordCutShort(offset: 80, expected: 16, available: 10))
        // The record before the damage still reads.
        #expect(try PcapRecordReader(directory: directory.url).read(CaptureLocation(fileSequence: 1, recordOffset: 24)).bytes
                == GoldenVectors.ipv4TCP)
    }

    @Test func anInclLenOverTheSnaplenIsRefusedBeforeAllocating() async throws {
        let (directory, file) = try await capture()
        var bytes = [UInt8](try Data(contentsOf: file))
        bytes[24 + 8] = 0xFF
        bytes[24 + 9] = 0xFF
        bytes[24 + 10] = 0xFF
        bytes[24 + 11] = 0x7F                                       // incl_len 2 GiB
        try Data(bytes).write(to: file)
        #expect(readError(CaptureLocation(fileSequence: 1, recordOffset: 24), in: directory.url)
                == .inclLenExceedsSnaplen(offset: 24, inclLen: 0x7FFF_FFFF, snaplen: 128))
    }

    @Test func aMissingFileAndAForeignFileAreReportedAndLeftAlone() async throws {
        let (directory, file) = try await capture()
        #expect(readError(CaptureLocation(fileSequence: 2, recordOffset: 24), in: directory.url) == .fileNotFound(sequence: 2))
        var bytes = [UInt8](try Data(contentsOf: file))
        bytes[0] = 0x0A                                             // pcapng's first byte
        try Data(bytes).write(to: file)
        #expect(readError(CaptureLocation(fileSequence: 1, recordOffset: 24), in: directory.url)
                == .format(.unknownMagic(0xa1b2_c30a)))
        #expect([UInt8](try Data(contentsOf: file)) == bytes)
    }

    @Test func theFileReaderWalksEveryRecordAndStopsAtDamage() async throws {
        let (directory, file) = try await capture()
        defer { withExtendedLifetime(directory) {} }
        var seen: [[UInt8]] = []
        try PcapFileReader(path: file.path).forEachRecord { (record) throws(Never) in seen.append(Array(record.bytes)) }
        #expect(seen == [GoldenVectors.ipv4TCP, GoldenVectors.ipv4UDP])
        try FileHandle(forWritingTo: file).truncate(atOffset: 100)
        seen = []
        let reader = try PcapFileReader(path: file.path)
        do throws(PcapFileReadError<Never>) {
            try reader.forEachRecord { (record) throws(Never) in seen.append(Array(record.bytes)) }
            Issue.record("a cut file read to the end")
        } catch {
            guard case let .corrupt(readError, index) = error else { Issue.record("\(error)"); return }
            #expect(index == 1 && readError == .recordCutShort(offset: 80, expected: 47, available: 20))
        }
        #expect(seen == [GoldenVectors.ipv4TCP])
    }
}
