import Foundation
import TestSupport
import Testing
@testable import App
import Shared

@Suite struct PlaintextLibraryTests {
    static let stamp: Int64 = 1_796_005_130_123_456_789

    /// A real writer's file: two interleaved conversations, the second chunk truncated by the caller.
    struct Written {
        let directory = TemporaryDirectory()
        var rows: [StoredPlaintextChunk] = []
        var url: URL

        init() throws {
            let writer = PlaintextWriter(config: .init(directory: directory.url, maxRecordBytes: 64))
            var rows: [StoredPlaintextChunk] = []
            let chunks: [(UInt64, Direction, String, Int?)] = [(1, .outbound, "GET /a", nil), (2, .outbound, "GET /b", 20),
                                                               (1, .inbound, "200 OK a", nil)]
            for (index, chunk) in chunks.enumerated() {
                let bytes = Data(chunk.2.utf8)
                let location = try #require(try writer.write(bytes, originalLength: chunk.3, stream: chunk.0, direction: chunk.1,
                                                             timestamp: PlaintextLibraryTests.stamp + Int64(index)))
                rows.append(StoredPlaintextChunk(id: Int64(index), flowID: Int64(chunk.0), timestamp: Date(), direction: chunk.1,
                                                 stream: chunk.0, location: location, storedLength: UInt32(bytes.count),
                                                 originalLength: UInt32(chunk.3 ?? bytes.count)))
            }
            try writer.close()
            self.rows = rows
            url = try #require(writer.files().first)
        }

        func row(_ index: Int, offset: UInt64? = nil, stream: UInt64? = nil, stored: UInt32? = nil, file: UInt32? = nil) -> StoredPlaintextChunk {
            let row = rows[index]
            return StoredPlaintextChunk(id: row.id, flowID: row.flowID, timestamp: row.timestamp, direction: row.direction,
                                        stream: stream ?? row.stream,
                                        location: PlaintextLocation(fileSequence: file ?? row.location.fileSequence,
                                                                    recordOffset: offset ?? row.location.recordOffset),
                                        storedLength: stored ?? row.storedLength, originalLength: row.originalLength)
        }
    }

    @Test("each row reads back its own bytes among interleaved conversations, with direction, absolute date and truncation")
    func ownBytes() async throws {
        let written = try Written()
        let library = PlaintextLibrary(directory: written.directory.url)
        let first = try await library.chunk(for: written.rows[0])
        #expect(first.bytes == Data("GET /a".utf8))
        #expect(first.direction == .outbound)
        #expect(abs(first.timestamp.timeIntervalSince1970 - Double(Self.stamp) / 1e9) < 1e-6)
        let truncated = try await library.chunk(for: written.rows[1])
        #expect(truncated.isTruncated)
        #expect(truncated.originalLength == 20)
        #expect(try await library.chunk(for: written.rows[2]).bytes == Data("200 OK a".utf8))
    }

    @Test("a swept file is notFound; an unresolvable directory is containerUnavailable; the file sequence separates equal offsets")
    func missing() async throws {
        let written = try Written()
        let library = PlaintextLibrary(directory: written.directory.url)
        await #expect(throws: PlaintextLibraryError.notFound(2)) { try await library.chunk(for: written.row(0, file: 2)) }
        try FileManager.default.removeItem(at: written.url)
        await #expect(throws: PlaintextLibraryError.notFound(1)) { try await library.chunk(for: written.rows[0]) }
        struct Gone: Error {}
        let lost = PlaintextLibrary(resolvingDirectory: { throw Gone() })
        await #expect { try await lost.chunk(for: written.rows[0]) } throws: { error in
            if case .containerUnavailable = error as? PlaintextLibraryError { return true }
            return false
        }
    }

    func refusal(_ written: Written, _ row: StoredPlaintextChunk, mismatch: Bool) async -> Bool {
        do {
            _ = try await PlaintextLibrary(directory: written.directory.url).chunk(for: row)
            return false
        } catch {
            switch error {
            case .recordMismatch: return mismatch
            case .recordUnreadable: return !mismatch
            default: return false
            }
        }
    }

    @Test("refusals: an offset inside the header or not at a record start, another conversation's record, lengths disagreeing with the row")
    func refusals() async throws {
        let written = try Written()
        #expect(await refusal(written, written.row(0, offset: 4), mismatch: false))
        #expect(await refusal(written, written.row(0, offset: 17), mismatch: false))
        #expect(await refusal(written, written.row(1, stream: 1), mismatch: true))
        #expect(await refusal(written, written.row(0, stored: 5), mismatch: true))
    }

    @Test("refusals on disk: a foreign magic, a record claiming more than its file allows, a record cut short")
    func refusalsOnDisk() async throws {
        var written = try Written()
        var bytes = try Data(contentsOf: written.url)
        let original = bytes
        bytes[0] = 0xD4
        try bytes.write(to: written.url)
        #expect(await refusal(written, written.rows[0], mismatch: false))
        bytes = original
        // The first record's stored_length (offset 16 + 20) claims 65 bytes of a file that allows 64.
        bytes[36] = 65
        try bytes.write(to: written.url)
        #expect(await refusal(written, written.row(0, stored: 65), mismatch: false))
        try original.prefix(original.count - 2).write(to: written.url)
        #expect(await refusal(written, written.rows[2], mismatch: false))
        written.rows = []
    }

    @Test("a file whose own header allows 4 GiB records, and a record claiming 3 GiB of it, is refused by the file's size before anything is allocated (found by fuzzing)")
    func hugeClaimRefusedBySize() async throws {
        let written = try Written()
        var bytes = try Data(contentsOf: written.url)
        bytes.replaceSubrange(8..<12, with: [0xF0, 0xFF, 0xFF, 0xFF])      // max_record_bytes, little-endian
        bytes.replaceSubrange(36..<40, with: [0x00, 0x00, 0x00, 0xC0])     // the first record's stored_length
        try bytes.write(to: written.url)
        let library = PlaintextLibrary(directory: written.directory.url)
        await #expect { try await library.chunk(for: written.row(0, stored: 0xC000_0000)) } throws: { error in
            guard case .recordUnreadable(let reason) = error as? PlaintextLibraryError else { return false }
            return reason.contains("claims 3221225472 bytes") && reason.contains("ends at \(bytes.count)")
        }
    }
}
