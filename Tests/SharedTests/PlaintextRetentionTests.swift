#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing
@testable import Shared

@Suite struct PlaintextRetentionTests {
    typealias F = StoreFixtures

    static func info(_ sequence: UInt32, _ bytes: UInt64) -> PlaintextFileInfo {
        PlaintextFileInfo(sequence: sequence, url: URL(fileURLWithPath: "/nowhere/\(sequence)"), byteCount: bytes, createdAt: nil)
    }

    @Test("orphans go; the ceiling then takes the oldest first, measured after the orphans; the open file is spared")
    func planner() {
        let files = [Self.info(4, 30), Self.info(1, 50), Self.info(2, 40), Self.info(3, 60)]
        let plan = PlaintextRetentionPlanner.plan(files: files, referenced: [2, 3], openSequence: 4, ceiling: 90)
        #expect(plan.orphans == [1])
        #expect(plan.ceilingVictims == [2])
        #expect(plan.bytesAfter == 90)
        #expect(!plan.ceilingUnreachable)
        let unreachable = PlaintextRetentionPlanner.plan(files: [Self.info(1, 10), Self.info(2, 500)], referenced: [1, 2],
                                                         openSequence: 2, ceiling: 100)
        #expect(unreachable.ceilingVictims == [1])
        #expect(unreachable.ceilingUnreachable)
        #expect(PlaintextRetentionPlanner.plan(files: [Self.info(5, 1)], referenced: [], openSequence: 5, ceiling: 0).orphans.isEmpty)
    }

    @Test("the open file is deduced from the listing: the newest while monitoring, none otherwise")
    func openDeduction() {
        let files = [Self.info(3, 1), Self.info(9, 1), Self.info(4, 1)]
        #expect(PlaintextRetentionPlanner.openSequence(files: files, isMonitoring: true) == 9)
        #expect(PlaintextRetentionPlanner.openSequence(files: files, isMonitoring: false) == nil)
    }

    /// Two real files from a real writer, and their rows: file 1 holds chunks at 1 s and 5 000 s, file 2 at 9 000 s.
    func fixture(_ directory: TemporaryDirectory) async throws -> (FlowStore, URL, [URL]) {
        let store = try F.store(in: directory)
        let plaintext = DataDirectoryLayout.plaintext(in: directory.url)
        let writer = PlaintextWriter(config: .init(directory: plaintext, maxFileBytes: 100))
        let key = F.key(1)
        var rows: [PlaintextChunkRecord] = []
        for seconds in [1.0, 5_000, 9_000] {
            let location = try #require(try writer.write(Data(repeating: 1, count: 40), stream: 1, direction: .outbound, timestamp: 0))
            rows.append(PlaintextChunkRecord(flowKey: key, timestamp: F.uptime(seconds), direction: .outbound, stream: 1,
                                             location: location, storedLength: 40, originalLength: 40))
        }
        try writer.close()
        _ = try await store.write(FlowStoreBatch(flows: [F.record(key, lastSeen: F.uptime(9_000))], plaintext: rows))
        return (store, plaintext, writer.files())
    }

    @Test("over real files: an expired chunk orphans its file, a half-expired file is kept, the live one survives")
    func realSweep() async throws {
        let directory = TemporaryDirectory()
        let (store, plaintext, files) = try await fixture(directory)
        #expect(files.count == 3)
        let settings = RetentionSettings(maxPlaintextAge: .oneHour)
        // now = 9 000 s + a bit: the chunk at 1 s is past an hour, those at 5 000 s... (9 100 − 3 600 = 5 500) too.
        let outcome = await PlaintextRetention.sweep(settings, directory: plaintext, openSequence: { _ in nil },
                                                     now: F.date(F.uptime(9_100)), openingHistory: { store })
        #expect(outcome.chunksExpired == 2)
        #expect(outcome.deletedFiles == [1, 2])
        #expect(outcome.stopped == nil)
        #expect(try PlaintextDirectory.files(in: plaintext).keys.sorted() == [3])
        #expect(try await store.referencedPlaintextFileSequences() == [3])
    }

    @Test("the ceiling deletes the oldest file with its rows, and spares the open one")
    func ceilingOverRealFiles() async throws {
        let directory = TemporaryDirectory()
        let (store, plaintext, _) = try await fixture(directory)
        let outcome = await PlaintextRetention.sweep(RetentionSettings(maxPlaintextAge: .oneWeek), directory: plaintext,
                                                     openSequence: { PlaintextRetentionPlanner.openSequence(files: $0, isMonitoring: true) },
                                                     now: F.date(F.uptime(9_100)), ceiling: 100, openingHistory: { store })
        #expect(outcome.deletedFiles == [1, 2])
        #expect(outcome.chunksDeletedWithFiles == 2)
        #expect(outcome.openSequence == 3)
        #expect(try await store.referencedPlaintextFileSequences() == [3])
    }

    @Test("an unreachable index deletes nothing; a missing directory is quiet")
    func unreachableAndMissing() async throws {
        let directory = TemporaryDirectory()
        let (_, plaintext, _) = try await fixture(directory)
        struct Unreachable: Error {}
        let stopped = await PlaintextRetention.sweep(.default, directory: plaintext, openSequence: { _ in nil },
                                                     now: Date.distantFuture, openingHistory: { throw Unreachable() })
        #expect(stopped.stopped != nil)
        #expect(try PlaintextDirectory.files(in: plaintext).count == 3)
        let quiet = await PlaintextRetention.sweep(.default, directory: directory.url.appendingPathComponent("absent"),
                                                   openSequence: { _ in nil }, now: Date(),
                                                   openingHistory: { try F.store(in: TemporaryDirectory()) })
        #expect(quiet == PlaintextSweepOutcome())
    }
}
