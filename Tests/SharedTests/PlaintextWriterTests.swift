#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing
@testable import Shared

@Suite struct PlaintextWriterTests {
    static let stamp: Int64 = 1_796_005_130_000_000_000

    func writer(_ directory: URL, maxFileBytes: UInt64 = PlaintextWriter.defaultMaxFileBytes, maxRecordBytes: UInt32 = 64 << 10,
                sequence: UInt32? = nil, stream: UInt64? = nil) -> PlaintextWriter {
        PlaintextWriter(config: .init(directory: directory, maxRecordBytes: maxRecordBytes, maxFileBytes: maxFileBytes,
                                      highestReferencedSequence: sequence, highestReferencedStream: stream),
                        wallClock: { Self.stamp })
    }

    func names(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    func size(_ url: URL) throws -> UInt64 {
        try #require(FileManager.default.attributesOfItem(atPath: url.path)[.size] as? UInt64)
    }

    @Test("no file, not even the directory, exists until content comes; an empty chunk stores nothing")
    func lazyOpen() throws {
        let scratch = TemporaryDirectory()
        let directory = scratch.url.appendingPathComponent("plaintext")
        let writer = writer(directory)
        _ = writer.openStream()
        try writer.rotate()
        try writer.flush()
        #expect(try writer.write(Data(), stream: 1, direction: .outbound, timestamp: Self.stamp) == nil)
        #expect(!FileManager.default.fileExists(atPath: directory.path))
        #expect(writer.currentFileSequence == nil)
        let location = try #require(try writer.write(Data("GET /".utf8), stream: 1, direction: .outbound, timestamp: Self.stamp))
        #expect(location == PlaintextLocation(fileSequence: 1, recordOffset: 16))
        try writer.close()
        #expect(names(in: directory) == ["plaintext-000001-20261130-021850.tvpt"])
        let mode = try #require(FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(names(in: directory)[0]).path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
    }

    @Test("each location leads to its own record among interleaved conversations, and the file's size is exactly the records'")
    func interleaved() throws {
        let scratch = TemporaryDirectory()
        let writer = writer(scratch.url)
        let (a, b) = (writer.openStream(), writer.openStream())
        var expected: [(PlaintextLocation, UInt64, [UInt8])] = []
        var total = UInt64(PlaintextFormat.globalHeaderLength)
        for index in 0..<40 {
            let stream = index % 3 == 0 ? b : a
            let bytes = [UInt8](repeating: UInt8(index), count: index * 7 + 1)
            let location = try #require(try writer.write(Data(bytes), stream: stream, direction: index % 2 == 0 ? .outbound : .inbound,
                                                         timestamp: Self.stamp + Int64(index)))
            #expect(location.recordOffset == total)
            total += UInt64(PlaintextFormat.recordHeaderLength + bytes.count)
            expected.append((location, stream, bytes))
        }
        try writer.flush()
        let file = try Data(contentsOf: try #require(writer.files().first))
        #expect(UInt64(file.count) == total)
        for (location, stream, bytes) in expected {
            let start = Int(location.recordOffset)
            let header = try PlaintextFormat.RecordHeader(parsing: file.subdata(in: start..<start + 32), offset: location.recordOffset)
            #expect(header.stream == stream)
            #expect([UInt8](file.subdata(in: start + 32..<start + 32 + Int(header.storedLength))) == bytes)
        }
    }

    @Test("a chunk past the per-record cap is stored cut, its original length kept")
    func perRecordCut() throws {
        let scratch = TemporaryDirectory()
        let writer = writer(scratch.url, maxRecordBytes: 8)
        let location = try #require(try writer.write(Data(repeating: 0x41, count: 20), stream: 1, direction: .inbound, timestamp: 0))
        try writer.flush()
        let file = try Data(contentsOf: try #require(writer.files().first))
        let header = try PlaintextFormat.RecordHeader(parsing: file.subdata(in: 16..<48), offset: location.recordOffset)
        #expect(header.storedLength == 8)
        #expect(header.originalLength == 20)
        #expect(file.count == 16 + 32 + 8)
    }

    @Test("stream ids are unique and start above the index's; sequences start above both the directory's and the index's")
    func startupNumbers() throws {
        let scratch = TemporaryDirectory()
        _ = FileManager.default.createFile(atPath: scratch.url.appendingPathComponent("plaintext-000007-20261130-000000.tvpt").path, contents: Data())
        let aboveDisk = writer(scratch.url, sequence: 3, stream: 90)
        #expect(aboveDisk.openStream() == 91)
        #expect(aboveDisk.openStream() == 92)
        #expect(try aboveDisk.write(Data([1]), stream: 91, direction: .outbound, timestamp: 0)?.fileSequence == 8)
        try aboveDisk.close()
        let aboveIndex = writer(scratch.url, sequence: 20)
        #expect(try aboveIndex.write(Data([1]), stream: 1, direction: .outbound, timestamp: 0)?.fileSequence == 21)
        try aboveIndex.close()
    }

    @Test("size rotation loses and duplicates nothing; a manual rotation leaves no empty file")
    func rotation() throws {
        let scratch = TemporaryDirectory()
        let writer = writer(scratch.url, maxFileBytes: 200)
        var written: [PlaintextLocation] = []
        for index in 0..<10 {
            written.append(try #require(try writer.write(Data(repeating: UInt8(index), count: 50), stream: 1, direction: .outbound, timestamp: 0)))
        }
        try writer.rotate()
        try writer.rotate()
        #expect(writer.currentFileSequence == nil)
        let files = writer.files()
        #expect(files.count == 5)
        #expect(Set(written).count == 10)
        var records = 0
        for url in files {
            let size = try size(url)
            #expect(size <= 200)
            #expect((size - 16) % 82 == 0)
            records += Int((size - 16) / 82)
        }
        #expect(records == 10)
        #expect(names(in: scratch.url).count == 5)
    }

    @Test("typed errors: a link where the directory should be is refused, not followed, and a broken writer says closed")
    func typedErrors() throws {
        let scratch = TemporaryDirectory()
        let target = scratch.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let planted = scratch.url.appendingPathComponent("plaintext")
        try FileManager.default.createSymbolicLink(at: planted, withDestinationURL: target)
        let writer = writer(planted)
        #expect {
            try writer.write(Data([1]), stream: 1, direction: .outbound, timestamp: 0)
        } throws: { error in
            guard case .openFailed(let path, _) = error as? PlaintextWriteError else { return false }
            return path == planted.path
        }
        #expect(names(in: target).isEmpty)
        #expect(throws: PlaintextWriteError.closed) { try writer.write(Data([1]), stream: 1, direction: .outbound, timestamp: 0) }
    }
}
