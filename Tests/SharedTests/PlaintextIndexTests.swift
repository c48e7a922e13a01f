import Foundation
import TestSupport
import Testing
@testable import Shared

@Suite struct PlaintextIndexTests {
    typealias F = StoreFixtures

    static func chunk(_ key: FlowKey, at seconds: Double, _ direction: Direction = .outbound, stream: UInt64 = 1,
                      file: UInt32 = 1, offset: UInt64 = 16, stored: UInt32 = 10, original: UInt32 = 10) -> PlaintextChunkRecord {
        PlaintextChunkRecord(flowKey: key, timestamp: F.uptime(seconds), direction: direction, stream: stream,
                             location: PlaintextLocation(fileSequence: file, recordOffset: offset),
                             storedLength: stored, originalLength: original)
    }

    @Test("rows written at flush come back dated absolutely, in conversation order, with their location, owned by their flow, up to the limit")
    func writtenAndRead() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        let (a, b) = (F.key(1), F.key(2))
        let outcome = try await store.write(FlowStoreBatch(
            flows: [F.record(a, lastSeen: F.uptime(9)), F.record(b, lastSeen: F.uptime(9))],
            plaintext: [Self.chunk(a, at: 3, .inbound, offset: 58), Self.chunk(a, at: 2, offset: 16, stored: 4, original: 9),
                        Self.chunk(b, at: 2.5, stream: 2, file: 2), Self.chunk(F.key(3), at: 2)]))
        #expect(outcome.plaintextWritten == 3)
        #expect(outcome.orphanedPlaintext == 1)
        let rows = try await store.plaintext(forFlow: outcome.flowIDs[0], limit: 10)
        #expect(rows.map(\.location.recordOffset) == [16, 58])
        #expect(rows.map(\.direction) == [.outbound, .inbound])
        #expect(rows[0].timestamp == F.date(F.uptime(2)))
        #expect(rows[0].isTruncated)
        #expect(rows[0].originalLength == 9)
        #expect(try await store.plaintext(forFlow: outcome.flowIDs[0], limit: 1).count == 1)
        #expect(try await store.plaintext(forFlow: outcome.flowIDs[1], limit: 10).map(\.stream) == [2])
        #expect(try await store.highestPlaintextFileSequence() == 2)
        #expect(try await store.highestPlaintextStream() == 2)
        #expect(try await store.referencedPlaintextFileSequences() == [1, 2])
    }

    @Test("an empty index answers nil to the writer's startup questions")
    func emptyStartup() async throws {
        let store = try F.store(in: TemporaryDirectory())
        #expect(try await store.highestPlaintextFileSequence() == nil)
        #expect(try await store.highestPlaintextStream() == nil)
        #expect(try await store.referencedPlaintextFileSequences().isEmpty)
    }

    @Test("pruning by age goes row by row and leaves flows and packets; a file's rows go with it; clearing keeps the history")
    func pruneAndClear() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        let a = F.key(1)
        let outcome = try await store.write(FlowStoreBatch(
            flows: [F.record(a, lastSeen: F.uptime(30))],
            packets: [F.packet(a, at: F.uptime(1), capture: CaptureLocation(fileSequence: 1, recordOffset: 24))],
            plaintext: [Self.chunk(a, at: 1, file: 1), Self.chunk(a, at: 20, file: 1, offset: 26), Self.chunk(a, at: 25, file: 2)]))
        let id = outcome.flowIDs[0]
        #expect(try await store.prunePlaintext(before: F.date(F.uptime(10))) == 1)
        #expect(try await store.plaintext(forFlow: id, limit: 10).count == 2)
        #expect(try await store.flowCount() == 1)
        #expect(try await store.packets(forFlow: id, limit: 10).first?.capture == CaptureLocation(fileSequence: 1, recordOffset: 24))
        #expect(try await store.deletePlaintext(inFile: 2) == 1)
        #expect(try await store.referencedPlaintextFileSequences() == [1])
        #expect(try await store.clearPlaintext() == 1)
        #expect(try await store.plaintextChunkCount() == 0)
        #expect(try await store.flowCount() == 1)
        #expect(try await store.packets(forFlow: id, limit: 10).count == 1)
    }

    @Test("deleting a flow cascades to its decrypted chunks' rows")
    func cascade() async throws {
        let store = try F.store(in: TemporaryDirectory())
        let a = F.key(1)
        _ = try await store.write(FlowStoreBatch(flows: [F.record(a, lastSeen: F.uptime(1))], plaintext: [Self.chunk(a, at: 1)]))
        #expect(try await store.plaintextChunkCount() == 1)
        #expect(try await store.prune(before: F.date(F.uptime(5))) == 1)
        #expect(try await store.plaintextChunkCount() == 0)
    }
}
