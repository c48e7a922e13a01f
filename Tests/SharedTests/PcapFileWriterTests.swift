import Fixtures
import Foundation
import TestSupport
import Testing
@testable import Shared

@Suite struct PcapFileWriterTests {
    @Test func writtenOutRecordsReadBackBeforeTheFileIsClosed() throws {
        let directory = TemporaryDirectory()
        let capture = try PcapFileWriter(config: .init(directory: directory.url), wallClock: { 0 })
        var traffic = SyntheticTraffic(seed: 3)
        var written: [(CaptureLocation, Data)] = []
        for _ in 0..<20 {
            let packet = traffic.next()
            let location = try packet.bytes.withUnsafeBytes { bytes throws(PcapError) in
                try capture.write(bytes: bytes, originalLength: bytes.count, timestamp: Int64(packet.offsetNanoseconds))
            }
            written.append((location, packet.bytes))
        }
        try capture.writeOut()
        let reader = PcapRecordReader(directory: directory.url)
        for (location, bytes) in written {
            #expect(try reader.read(location).bytes == Array(bytes))
        }
        try capture.close()
        #expect(throws: PcapError.closed) { try capture.write(packet: Data([0x45]), originalLength: 1, timestamp: 0) }
    }

    @Test func theActorAndTheFileWriterWriteTheSameBytes() async throws {
        let (first, second) = (TemporaryDirectory(), TemporaryDirectory())
        let direct = try PcapFileWriter(config: .init(directory: first.url), wallClock: { 0 })
        let wrapped = try PcapWriter(config: .init(directory: second.url), wallClock: { 0 })
        var traffic = SyntheticTraffic(seed: 5)
        for _ in 0..<50 {
            let packet = traffic.next()
            let timestamp = Int64(packet.offsetNanoseconds)
            let location = try direct.write(packet: packet.bytes, originalLength: packet.bytes.count, timestamp: timestamp)
            let viaActor = try await wrapped.write(packet: packet.bytes, originalLength: packet.bytes.count, timestamp: timestamp)
            #expect(location == viaActor)
        }
        try direct.close()
        try await wrapped.close()
        let files = (direct.captureFiles(), await wrapped.captureFiles())
        #expect(try files.0.map { try Data(contentsOf: $0) } == files.1.map { try Data(contentsOf: $0) })
    }
}
