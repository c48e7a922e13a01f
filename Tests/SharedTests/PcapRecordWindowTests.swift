import Foundation
import Testing
import TestSupport
@testable import Shared

/// A capture file's wanted records read at rising offsets through one window: the same records
/// `PcapRecordReader` reads one by one, across window edges, and the same refusals.
@Suite struct PcapRecordWindowTests {
    /// A file of `count` records of varied sizes, written by the tunnel's own writer; their offsets
    /// and bytes.
    private func capture(_ count: Int, in directory: TemporaryDirectory) throws -> (URL, [(UInt64, [UInt8])]) {
        let writer = try PcapFileWriter(config: .init(directory: directory.url, maxFileBytes: 1 << 30))
        var records: [(UInt64, [UInt8])] = []
        for index in 0..<count {
            let bytes = [UInt8]((0..<(40 + index * 131 % 9_000)).map { UInt8(truncatingIfNeeded: $0 &+ index) })
            let location = try writer.write(packet: Data(bytes), originalLength: bytes.count, timestamp: Int64(index) * 1_000_000)
            records.append((location.recordOffset, bytes))
        }
        try writer.close()
        return (writer.captureFiles()[0], records)
    }

    @Test("every other record of a file several windows long reads back whole, as PcapRecordReader reads it")
    func risingOffsetsAcrossWindows() throws {
        let directory = TemporaryDirectory()
        let (file, records) = try capture(900, in: directory)
        let window = try PcapRecordWindow(url: file)
        #expect(window.fileSize > UInt64(3 * PcapRecordWindow.windowSize))
        for (offset, bytes) in records.enumerated().filter({ $0.offset % 2 == 0 }).map(\.element) {
            let record = try window.record(at: offset)
            #expect(Array(record.bytes) == bytes)
            #expect(record.header == (try PcapRecordReader.read(recordAt: offset, in: file)).header)
        }
        // Going back is answered too.
        #expect(Array(try window.record(at: records[1].0).bytes) == records[1].1)
    }

    @Test("an offset inside the global header, past the end, or at a record cut short is refused as PcapRecordReader refuses it")
    func refusals() throws {
        let directory = TemporaryDirectory()
        let (file, records) = try capture(3, in: directory)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber).uint64Value
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: size - 5)
        try handle.close()
        let window = try PcapRecordWindow(url: file)
        for offset in [8, size + 10, records[2].0] {
            var windowError: PcapReadError?, readerError: PcapReadError?
            do { _ = try window.record(at: offset) } catch { windowError = error }
            do { _ = try PcapRecordReader.read(recordAt: offset, in: file) } catch { readerError = error }
            #expect(windowError != nil && windowError == readerError)
        }
    }

    @Test("a file that is not a raw-IP capture is refused at the start")
    func notACapture() throws {
        let directory = TemporaryDirectory()
        let file = directory.url.appendingPathComponent(CaptureFileName.make(sequence: 3, nanosecondsSince1970: 0))
        try Data("short".utf8).write(to: file)
        #expect(throws: PcapReadError.format(.shortHeader(expected: 24, actual: 5))) { _ = try PcapRecordWindow(url: file) }
        #expect(throws: PcapReadError.fileNotFound(sequence: 4)) {
            _ = try PcapRecordWindow(url: directory.url.appendingPathComponent(CaptureFileName.make(sequence: 4, nanosecondsSince1970: 0)))
        }
    }
}
