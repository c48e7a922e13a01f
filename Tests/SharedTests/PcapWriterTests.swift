import Fixtures
import Foundation
import TestSupport
import Testing
@testable import Shared

@Suite struct PcapWriterTests {
    static let startOfSession: Int64 = 1_796_005_130_000_000_000

    private func writer(_ directory: URL, snaplen: UInt32 = 262_144, maxFileBytes: UInt64 = 64 << 20,
                        referenced: UInt32? = nil) throws -> PcapWriter {
        try PcapWriter(config: .init(directory: directory, snaplen: snaplen, maxFileBytes: maxFileBytes,
                                     highestReferencedSequence: referenced),
                       wallClock: { Self.startOfSession })
    }

    @Test func aWrittenRecordIsByteExactOnDisk() async throws {
        let directory = TemporaryDirectory()
        let capture = try writer(directory.url)
        let location = try await capture.write(packet: Data(GoldenVectors.ipv4UDP), originalLength: 31,
                                               timestamp: Self.startOfSession + 1_000)
        try await capture.close()
        #expect(location == CaptureLocation(fileSequence: 1, recordOffset: 24))
        let files = await capture.captureFiles()
        #expect(files.map(\.lastPathComponent) == ["tunnelvision-000001-20261130-021850.pcap"])
        let bytes = [UInt8](try Data(contentsOf: files[0]))
        #expect(bytes.count == 24 + 16 + 31)
        #expect(Array(bytes[0..<4]) == [0xd4, 0xc3, 0xb2, 0xa1])
        #expect(Array(bytes[20..<24]) == [101, 0, 0, 0])
        #expect(Array(bytes[24..<40]) == [0x0a, 0xdd, 0x0c, 0x6b, 1, 0, 0, 0, 31, 0, 0, 0, 31, 0, 0, 0])
        #expect(Array(bytes[40...]) == GoldenVectors.ipv4UDP)
        let attributes = try FileManager.default.attributesOfItem(atPath: files[0].path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func snaplenCutsTheRecordAndKeepsTheOriginalLength() async throws {
        let directory = TemporaryDirectory()
        let capture = try writer(directory.url, snaplen: CaptureDetail.metadataOnly.snaplen)
        let big = Data(repeating: 0x42, count: 1500)
        let location = try await capture.write(packet: big, originalLength: 1500, timestamp: Self.startOfSession)
        try await capture.close()
        let record = try PcapRecordReader(directory: directory.url).read(location)
        #expect(record.header.inclLen == 128 && record.header.origLen == 1500 && record.bytes.count == 128)
    }

    @Test func filesRotateAtTheSizeAndEveryLocationReadsBackItsOwnBytes() async throws {
        let directory = TemporaryDirectory()
        let capture = try writer(directory.url, maxFileBytes: 4_096)
        var traffic = SyntheticTraffic(seed: 11)
        var written: [(CaptureLocation, Data)] = []
        for _ in 0..<400 {
            let packet = traffic.next()
            let location = try await capture.write(packet: packet.bytes, originalLength: packet.bytes.count,
                                                   timestamp: Self.startOfSession + Int64(packet.offsetNanoseconds))
            written.append((location, packet.bytes))
        }
        try await capture.close()
        let files = await capture.captureFiles()
        #expect(files.count > 5)
        #expect(try CaptureDirectory.files(in: directory.url).sorted { $0.key < $1.key }.map(\.value) == files)
        for file in files {
            let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
            #expect(size <= 4_096)
        }
        let sequences = written.map(\.0.fileSequence)
        #expect(sequences == sequences.sorted() && Set(sequences).count == files.count)
        let reader = PcapRecordReader(directory: directory.url)
        for (location, bytes) in written {
            #expect(try reader.read(location).bytes == [UInt8](bytes))
        }
        // The same offset in two files holds two different records.
        let offsets = Dictionary(grouping: written, by: \.0.recordOffset).values.first { $0.count > 1 }!
        #expect(try reader.read(offsets[0].0).bytes != reader.read(offsets[1].0).bytes || offsets[0].1 == offsets[1].1)
    }

    @Test func rotationOnDemandAndSnaplenChangeStartNewFiles() async throws {
        let directory = TemporaryDirectory()
        let capture = try writer(directory.url)
        try await capture.write(packet: Data(GoldenVectors.ipv4TCP), originalLength: 40, timestamp: Self.startOfSession)
        try await capture.rotate()
        #expect(await capture.currentFileSequence == 2)
        try await capture.setSnaplen(262_144)                       // unchanged: no new file
        #expect(await capture.currentFileSequence == 2)
        try await capture.setSnaplen(128)
        #expect(await capture.currentFileSequence == 3)
        let location = try await capture.write(packet: Data(repeating: 0x45, count: 300), originalLength: 300,
                                               timestamp: Self.startOfSession)
        try await capture.close()
        #expect(location.fileSequence == 3)
        #expect(try PcapRecordReader(directory: directory.url).read(location).bytes.count == 128)
        await #expect(throws: PcapError.closed) {
            try await capture.write(packet: Data([0x45]), originalLength: 1, timestamp: 0)
        }
    }

    @Test func sequencesAreNeverReusedAcrossARestart() async throws {
        let directory = TemporaryDirectory()
        let first = try writer(directory.url)
        try await first.rotate()
        try await first.rotate()
        try await first.close()                                     // files 1, 2, 3
        let second = try writer(directory.url)
        #expect(await second.currentFileSequence == 4)
        try await second.close()
        // The history still points at file 9, which retention already deleted.
        let third = try writer(directory.url, referenced: 9)
        #expect(await third.currentFileSequence == 10)
        try await third.close()
        for file in try CaptureDirectory.files(in: directory.url).values { try FileManager.default.removeItem(at: file) }
        let fourth = try writer(directory.url, referenced: 10)
        #expect(await fourth.currentFileSequence == 11)
        try await fourth.close()
    }

    @Test func theLastSequenceIsExhaustedRatherThanWrapped() async throws {
        let directory = TemporaryDirectory()
        #expect(throws: PcapError.sequenceExhausted) { _ = try writer(directory.url, referenced: UInt32.max) }
        let last = try writer(directory.url, referenced: UInt32.max - 1)
        #expect(await last.currentFileSequence == UInt32.max)
        await #expect(throws: PcapError.sequenceExhausted) { try await last.rotate() }
    }

    @Test func aDirectoryThatCannotBeCreatedIsATypedError() throws {
        let directory = TemporaryDirectory()
        let blocker = directory.url.appendingPathComponent("file")
        try Data().write(to: blocker)
        #expect(throws: PcapError.openFailed(path: blocker.path, errno: ENOTDIR)) {
            _ = try writer(blocker)
        }
    }
}
