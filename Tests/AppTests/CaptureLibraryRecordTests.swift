import App
import Fixtures
import Foundation
import Shared
import Testing
import TestSupport

/// `CaptureLibrary.record(at:)` against files the real `PcapFileWriter` wrote.
@Suite struct CaptureLibraryRecordTests {
    static func packets(_ count: Int, seed: UInt64) -> [Data] {
        var traffic = SyntheticTraffic(seed: seed)
        return (0..<count).map { _ in traffic.next().bytes }
    }

    @Test("every location the writer returned resolves to its own bytes, across rotated files")
    func everyLocationResolves() async throws {
        let directory = TemporaryDirectory("tv-record")
        let writer = try PcapFileWriter(config: .init(directory: directory.url, maxFileBytes: 4096))
        let packets = Self.packets(200, seed: 3)
        var locations: [CaptureLocation] = []
        for (index, packet) in packets.enumerated() {
            locations.append(try writer.write(packet: packet, originalLength: packet.count,
                                              timestamp: 1_796_005_130_000_000_000 + Int64(index) * 1_000))
        }
        try writer.close()
        #expect(Set(locations.map(\.fileSequence)).count > 1)
        let library = CaptureLibrary(directory: directory.url)
        for (index, location) in locations.enumerated() {
            let record = try await library.record(at: location)
            #expect(record.bytes == Array(packets[index]))
            #expect(record.originalLength == UInt32(packets[index].count) && !record.isTruncated)
            #expect(record.timestampMicroseconds == 1_796_005_130_000_000 + UInt64(index))
        }
    }

    @Test("the same offset in two files gives different bytes, a snaplen cut is reported, a deleted file is notFound")
    func offsetsTruncationAndDeletion() async throws {
        let directory = TemporaryDirectory("tv-record")
        let writer = try PcapFileWriter(config: .init(directory: directory.url, snaplen: 128))
        let packets = Self.packets(2, seed: 9)
        let long = try PacketEmitter.udp(source: IPEndpoint(address: TunnelAddressing.ipv4Address, port: 1),
                                         destination: IPEndpoint(address: IPAddress(parsing: "198.18.0.9")!, port: 2),
                                         payload: Data(repeating: 7, count: 400))
        let first = try writer.write(packet: long, originalLength: long.count, timestamp: 0)
        try writer.rotate()
        let second = try writer.write(packet: packets[1], originalLength: packets[1].count, timestamp: 0)
        try writer.close()
        #expect(first.recordOffset == second.recordOffset && first.fileSequence != second.fileSequence)
        let library = CaptureLibrary(directory: directory.url)
        let a = try await library.record(at: first)
        let b = try await library.record(at: second)
        #expect(a.bytes != b.bytes)
        #expect(a.isTruncated && a.capturedLength == 128 && a.originalLength == UInt32(long.count))
        #expect(Array(a.bytes) == Array(long.prefix(128)))
        try await library.delete(sequence: first.fileSequence)
        await #expect(throws: CaptureLibraryError.notFound(first.fileSequence)) { try await library.record(at: first) }
    }

    @Test("the four corrupt cases read as recordUnreadable, each with its reason")
    func corruptRecords() async throws {
        let directory = TemporaryDirectory("tv-record")
        let writer = try PcapFileWriter(config: .init(directory: directory.url, snaplen: 1000))
        let packet = Self.packets(1, seed: 4)[0]
        let location = try writer.write(packet: packet, originalLength: packet.count, timestamp: 0)
        try writer.close()
        let library = CaptureLibrary(directory: directory.url)
        let file = try #require(try await library.files().first).url
        func reason(_ location: CaptureLocation) async -> String? {
            do { _ = try await library.record(at: location); return nil } catch {
                guard case let .recordUnreadable(reason) = error else { return "wrong case \(error)" }
                return reason
            }
        }
        let sequence = location.fileSequence
        #expect(await reason(CaptureLocation(fileSequence: sequence, recordOffset: 10))?.contains("inside the file's global header") == true)
        #expect(await reason(CaptureLocation(fileSequence: sequence, recordOffset: 1 << 20))?.contains("past the end") == true)
        // incl_len beyond the snaplen, refused before anything is allocated.
        var bytes = try Data(contentsOf: file)
        bytes.replaceSubrange(Int(location.recordOffset) + 8..<Int(location.recordOffset) + 12,
                              with: withUnsafeBytes(of: UInt32(1 << 30).littleEndian) { Data($0) })
        try bytes.write(to: file)
        #expect(await reason(location)?.contains("more than the snaplen 1000") == true)
        // A record cut short by a dying writer.
        let whole = try Data(contentsOf: file)
        var cut = whole
        cut.replaceSubrange(Int(location.recordOffset) + 8..<Int(location.recordOffset) + 12,
                            with: withUnsafeBytes(of: UInt32(packet.count).littleEndian) { Data($0) })
        try cut.prefix(cut.count - 3).write(to: file)
        let cutReason = await reason(location)
        #expect(cutReason?.contains("needs \(16 + packet.count) bytes") == true)
    }
}
