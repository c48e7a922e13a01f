import Foundation
import TestSupport
import Testing
@testable import App
import Shared

/// The storage manager against real captures written by the real writer and a real history:
/// retention crosses both halves, so both are real.
@Suite(.serialized) struct StorageManagerTests {
    static func manager(_ data: URL) -> StorageManager {
        StorageManager(library: CaptureLibrary(dataDirectory: data), plaintextDirectory: DataDirectoryLayout.plaintext(in: data)) {
            FileManager.default.fileExists(atPath: DataDirectoryLayout.database(in: data).path)
                ? try FlowStore(databaseURL: DataDirectoryLayout.database(in: data), origin: "read") : nil
        }
    }

    static func sequences(_ data: URL) throws -> [UInt32] {
        try CaptureDirectory.fileInfos(in: DataDirectoryLayout.captures(in: data)).map(\.sequence)
    }

    static func flowCount(_ data: URL) async throws -> Int {
        let store = try FlowStore(databaseURL: DataDirectoryLayout.database(in: data))
        defer { Task { await store.close() } }
        return try await store.flowCount()
    }

    @Test("usage adds up: the captures' bytes are the files' sizes, the history's its database and connections")
    func usageAddsUp() async throws {
        let data = TemporaryDirectory("storage")
        let files = try RetentionFixture.captures(in: data.url, startedDaysAgo: [3, 2, 1])
        try await RetentionFixture.connections(in: data.url, count: 7, lastSeenDaysAgo: 1)
        let usage = try await Self.manager(data.url).usage()
        let onDisk = try files.reduce(UInt64(0)) {
            $0 + UInt64(try FileManager.default.attributesOfItem(atPath: $1.url.path)[.size] as! Int)
        }
        #expect(usage.captureBytes == onDisk && usage.captureFileCount == 3)
        // Measured while the manager's store had it open (with its WAL sidecars): at least the main file.
        let database = UInt64(try FileManager.default.attributesOfItem(atPath: DataDirectoryLayout.database(in: data.url).path)[.size] as! Int)
        let history = try #require(usage.historyBytes)
        #expect(history >= database && database > 0 && usage.historyFlowCount == 7)
        #expect(usage.totalBytes == onDisk + history && usage.isComplete)
    }

    @Test("a history that will not open still yields the capture figures, and its own are missing with why, not zeros; a pass over it deletes nothing")
    func aHistoryThatWillNotOpen() async throws {
        let data = TemporaryDirectory("storage")
        try RetentionFixture.captures(in: data.url, startedDaysAgo: [2, 1])
        try Data("this is not a database, it is a note".utf8).write(to: DataDirectoryLayout.database(in: data.url))
        let usage = try await Self.manager(data.url).usage()
        #expect(usage.captureFileCount == 2 && usage.captureBytes > 0)
        #expect(usage.historyBytes == nil && usage.historyFlowCount == nil && usage.auditFlowCount == nil && !usage.isComplete)
        #expect(usage.historyProblem?.contains("not") == true)
        // A pass over it deletes nothing, not even the aged file: nobody can say which captures hold audit evidence.
        let done = try await Self.manager(data.url).enforce(RetentionSettings(maxAge: .oneDay, maxCaptureSize: .unlimited),
                                                           isMonitoring: false)
        #expect(done.outcome.deletedFiles.isEmpty && done.plan == nil && done.outcome.failures.count == 1)
        #expect(done.outcome.failures[0].hasPrefix("the capture files holding audit evidence could not be read, so nothing was deleted"))
        #expect(done.outcome.failures[0].contains("is not a SQLite database"))
        #expect(try Self.sequences(data.url) == [1, 2])
        #expect(try Data(contentsOf: DataDirectoryLayout.database(in: data.url)) == Data("this is not a database, it is a note".utf8))
    }

    @Test("enforce deletes exactly the aged files and prunes the history, and the recording file survives")
    func agedFilesDeletedHistoryPrunedRecordingSurvives() async throws {
        let data = TemporaryDirectory("storage")
        // Files started 30, 20, 10 days ago and now; each written until the next began.
        try RetentionFixture.captures(in: data.url, startedDaysAgo: [30, 20, 10, 0])
        try await RetentionFixture.connections(in: data.url, count: 5, lastSeenDaysAgo: 30)
        let recent = try await RetentionFixture.connections(in: data.url, count: 3, lastSeenDaysAgo: 0, firstPort: 41_000)
        let manager = Self.manager(data.url)
        let week = RetentionSettings(maxAge: .oneWeek, maxCaptureSize: .unlimited)
        let preview = try await manager.preview(week, isMonitoring: true)
        let done = try await manager.enforce(week, isMonitoring: true)
        // File 1 ended 20 days ago, file 2 ten: both go; file 3 ended now; file 4 is being recorded.
        #expect(done.outcome.deletedFiles == [1, 2] && done.plan?.filesToDelete == preview.plan?.filesToDelete)
        #expect(try Self.sequences(data.url) == [3, 4])
        #expect(done.outcome.prunedFlows == 5 && done.outcome.failures.isEmpty && done.outcome.didChangeAnything)
        let store = try FlowStore(databaseURL: DataDirectoryLayout.database(in: data.url))
        #expect(try await store.recentFlows(limit: 10).map(\.id).sorted() == recent)
        await store.close()
        // Everything older than a day goes but the one being recorded, however old it is.
        try RetentionFixture.setModificationTime(of: try CaptureDirectory.fileInfos(in: DataDirectoryLayout.captures(in: data.url))[0].url,
                                                 to: Date().addingTimeInterval(-40 * RetentionFixture.day))
        let again = try await manager.enforce(RetentionSettings(maxAge: .oneDay, maxCaptureSize: .megabytes256), isMonitoring: true)
        #expect(again.outcome.deletedFiles == [3])
        #expect(try Self.sequences(data.url) == [4])
        // A pass with nothing left to do changes nothing, and says so.
        let idle = try await manager.enforce(week, isMonitoring: true)
        #expect(!idle.outcome.didChangeAnything && idle.outcome.failures.isEmpty)
    }

    @Test("a captures folder that cannot be resolved is the typed throw, and nothing is deleted")
    func anUnresolvableFolderIsTheTypedThrow() async throws {
        let data = TemporaryDirectory("storage")
        try await RetentionFixture.connections(in: data.url, count: 2, lastSeenDaysAgo: 30)
        struct Gone: Error {}
        let manager = StorageManager(library: CaptureLibrary(resolvingDirectory: { throw Gone() }),
                                     plaintextDirectory: URL(fileURLWithPath: "/nonexistent")) {
            try FlowStore(databaseURL: DataDirectoryLayout.database(in: data.url))
        }
        await #expect(throws: StorageError.self) { try await manager.usage() }
        do {
            _ = try await manager.enforce(RetentionSettings(maxAge: .oneDay, maxCaptureSize: .unlimited), isMonitoring: true)
            Issue.record("a pass ran without a listing")
        } catch {
            guard case .capturesUnavailable = error else { Issue.record("\(error)"); return }
        }
        // Without the listing not even the history is pruned.
        #expect(try await Self.flowCount(data.url) == 2)
    }

    @Test("clearEverything with no tunnel: every file and every connection and session go")
    func clearEverythingWithNoTunnel() async throws {
        let data = TemporaryDirectory("storage")
        try RetentionFixture.captures(in: data.url, startedDaysAgo: [2, 1, 0])
        try await RetentionFixture.connections(in: data.url, count: 4, lastSeenDaysAgo: 1)
        let manager = Self.manager(data.url)
        let scope = try await manager.clearingPlan(isMonitoring: false)
        #expect(scope.connections == 4 && scope.files.map(\.sequence) == [1, 2, 3])
        let outcome = try await manager.clearEverything(isMonitoring: false, includingEvidence: false)
        #expect(outcome.deletedFiles == [1, 2, 3] && outcome.prunedFlows == 4 && outcome.failures.isEmpty)
        #expect(try Self.sequences(data.url).isEmpty)
        #expect(try await Self.flowCount(data.url) == 0)
        let store = try FlowStore(databaseURL: DataDirectoryLayout.database(in: data.url))
        #expect(try await store.sessions().isEmpty)
        await store.close()
    }

    @Test("clearEverything while a tunnel records: its file and its session survive, and its next write and end still land")
    func clearEverythingWhileATunnelRecords() async throws {
        let data = TemporaryDirectory("storage")
        try RetentionFixture.captures(in: data.url, startedDaysAgo: [2, 1, 0])
        try await RetentionFixture.connections(in: data.url, count: 3, lastSeenDaysAgo: 1)
        // The tunnel's own store, writing in its session (another process's, in the product).
        let tunnel = try FlowStore(dataDirectory: data.url, origin: "run curl")
        func record(_ port: UInt16) -> FlowRecord {
            var record = FlowRecord(key: FlowKey(proto: .tcp, source: IPEndpoint(address: IPAddress(ipv4: 0x0A07_0002), port: port),
                                                 destination: IPEndpoint(address: IPAddress(ipv4: 0xC612_0001), port: 443)),
                                    firstSeen: MonotonicAnchor.uptimeNow(), tlsStatus: .encrypted)
            record.packetCount = 1
            return record
        }
        _ = try await tunnel.write(FlowStoreBatch(flows: [record(50_000)]))
        let session = try #require(await tunnel.sessionID)

        let outcome = try await Self.manager(data.url).clearEverything(isMonitoring: true, includingEvidence: false)
        #expect(outcome.deletedFiles == [1, 2] && outcome.prunedFlows == 4 && outcome.failures.isEmpty)
        #expect(try Self.sequences(data.url) == [3])

        _ = try await tunnel.write(FlowStoreBatch(flows: [record(50_001)]))
        try await tunnel.endSession()
        let reader = try FlowStore(databaseURL: DataDirectoryLayout.database(in: data.url))
        let kept = try #require(try await reader.session(session), "the live tunnel's session row was deleted")
        #expect(kept.origin == "run curl" && kept.ended != nil)
        #expect(try await reader.allFlows(inSession: session).count == 1)
        #expect(try await reader.sessions().map(\.id) == [session])
        await reader.close()
        await tunnel.close()
    }

    @Test("a folder nothing may be deleted from fails once per file, and the history is cleared all the same")
    func anUndeletableFolderFailsPerFileAndTheHistoryStillGoes() async throws {
        let data = TemporaryDirectory("storage")
        try RetentionFixture.captures(in: data.url, startedDaysAgo: [30, 20, 10, 5])
        try await RetentionFixture.connections(in: data.url, count: 6, lastSeenDaysAgo: 30)
        // Root ignores a directory's mode; an immutable directory refuses root too.
        let captures = DataDirectoryLayout.captures(in: data.url)
        let chattr = URL(fileURLWithPath: "/usr/bin/chattr")
        #expect(try BuiltProduct.run(chattr, ["+i", captures.path]).status == 0)
        defer { _ = try? BuiltProduct.run(chattr, ["-i", captures.path]) }
        let manager = Self.manager(data.url)
        let done = try await manager.enforce(RetentionSettings(maxAge: .oneWeek, maxCaptureSize: .unlimited), isMonitoring: false)
        #expect(done.plan?.filesToDelete == [1, 2] && done.outcome.deletedFiles.isEmpty)
        #expect(done.outcome.failures.count == 2)
        #expect(done.outcome.failures.allSatisfy { $0.contains("could not be deleted: Operation not permitted") })
        #expect(done.outcome.prunedFlows == 6)
        #expect(try await Self.flowCount(data.url) == 0)

        try await RetentionFixture.connections(in: data.url, count: 2, lastSeenDaysAgo: 1)
        let cleared = try await manager.clearEverything(isMonitoring: false, includingEvidence: false)
        #expect(cleared.failures.count == 4 && cleared.deletedFiles.isEmpty && cleared.prunedFlows == 2)
        #expect(try await Self.flowCount(data.url) == 0)
        #expect(try Self.sequences(data.url).count == 4)
    }

    // MARK: Audit evidence

    /// A manager whose history is a store already closed: it opens, and every question to it fails.
    static func managerOverAClosedHistory(_ data: URL) async throws -> StorageManager {
        let closed = try FlowStore(databaseURL: DataDirectoryLayout.database(in: data), origin: "read")
        await closed.close()
        return StorageManager(library: CaptureLibrary(dataDirectory: data), plaintextDirectory: DataDirectoryLayout.plaintext(in: data)) {
            closed
        }
    }

    @Test("applying the limits keeps the captures holding audit evidence, however old, and their connections, while the rest go")
    func evidenceSurvivesApply() async throws {
        let data = TemporaryDirectory("storage")
        // Files started 30, 20, 10 days ago and now: 1 and 2 are past a week. File 1 holds evidence of an ended session.
        try RetentionFixture.captures(in: data.url, startedDaysAgo: [30, 20, 10, 0])
        let session = try await RetentionFixture.evidence(in: data.url, files: [1], lastSeenDaysAgo: 30)
        try await RetentionFixture.connections(in: data.url, count: 4, lastSeenDaysAgo: 30)
        let manager = Self.manager(data.url)
        let week = RetentionSettings(maxAge: .oneWeek, maxCaptureSize: .unlimited)
        let preview = try await manager.preview(week, isMonitoring: true)
        #expect(preview.plan?.filesToDelete == [2] && preview.plan?.keptEvidence.files == [1])
        let done = try await manager.enforce(week, isMonitoring: true)
        #expect(done.outcome.deletedFiles == [2] && done.outcome.prunedFlows == 4 && done.outcome.failures.isEmpty)
        #expect(done.outcome.keptEvidence.files == [1] && !done.outcome.sizeCapHeldByEvidence)
        #expect(try Self.sequences(data.url) == [1, 3, 4])
        let store = try FlowStore(databaseURL: DataDirectoryLayout.database(in: data.url))
        #expect(try await store.flowCount(inAuditSession: session) == 1)
        #expect(try await store.flowCount() == 1)
        await store.close()
        // Ending the session does not end the exemption; deleting it does: the next pass takes the file.
        let owner = try FlowStore(databaseURL: DataDirectoryLayout.database(in: data.url))
        try await owner.deleteAuditSession(id: session)
        await owner.close()
        let released = try await manager.enforce(week, isMonitoring: true)
        #expect(released.outcome.deletedFiles == [1] && released.outcome.prunedFlows == 1)
        #expect(try Self.sequences(data.url) == [3, 4])
    }

    @Test("an evidence list that cannot be read deletes nothing, neither captures nor connections, and the outcome says why")
    func unreadableEvidenceDeletesNothing() async throws {
        let data = TemporaryDirectory("storage")
        try RetentionFixture.captures(in: data.url, startedDaysAgo: [30, 20, 10, 0])
        try await RetentionFixture.connections(in: data.url, count: 3, lastSeenDaysAgo: 30)
        let manager = try await Self.managerOverAClosedHistory(data.url)
        let week = RetentionSettings(maxAge: .oneWeek, maxCaptureSize: .unlimited)
        let done = try await manager.enforce(week, isMonitoring: true)
        #expect(done.plan == nil && done.outcome.deletedFiles.isEmpty && done.outcome.prunedFlows == 0)
        #expect(done.outcome.failures == [RetentionPass.evidenceUnreadableSentence("the history is closed")])
        #expect(StorageReport.outcomeLines(done.outcome) == ["nothing was deleted"])
        // Said before it is done, too.
        #expect(try await manager.preview(week, isMonitoring: true) == .nothing("the history is closed"))
        #expect(try Self.sequences(data.url) == [1, 2, 3, 4])
        #expect(try await Self.flowCount(data.url) == 3)
    }

    @Test("delete everything counts the audit evidence first and refuses while it is there, until the caller agrees; the audit stays")
    func clearingRefusesEvidenceUntilAgreed() async throws {
        let data = TemporaryDirectory("storage")
        try RetentionFixture.captures(in: data.url, startedDaysAgo: [2, 1])
        let session = try await RetentionFixture.evidence(in: data.url, files: [1], lastSeenDaysAgo: 1)
        try await RetentionFixture.connections(in: data.url, count: 3, lastSeenDaysAgo: 1)
        let manager = Self.manager(data.url)
        #expect(try await manager.usage().auditFlowCount == 1)
        let scope = try await manager.clearingPlan(isMonitoring: false)
        #expect(scope.connections == 4 && scope.auditConnections == 1)
        await #expect(throws: StorageError.clearingWouldDeleteEvidence(connections: 1)) {
            _ = try await manager.clearEverything(isMonitoring: false, includingEvidence: false)
        }
        #expect(try Self.sequences(data.url) == [1, 2])
        #expect(try await Self.flowCount(data.url) == 4)
        let cleared = try await manager.clearEverything(isMonitoring: false, includingEvidence: true)
        #expect(cleared.deletedFiles == [1, 2] && cleared.prunedFlows == 4 && cleared.failures.isEmpty)
        let store = try FlowStore(databaseURL: DataDirectoryLayout.database(in: data.url))
        #expect(try await store.auditSession(id: session) != nil)
        #expect(try await store.auditFlowCount() == 0)
        await store.close()
    }

    @Test("delete everything refuses when whether the history holds audit evidence cannot be read")
    func clearingRefusesUnknownEvidence() async throws {
        let data = TemporaryDirectory("storage")
        try RetentionFixture.captures(in: data.url, startedDaysAgo: [2, 1])
        try await RetentionFixture.connections(in: data.url, count: 2, lastSeenDaysAgo: 1)
        let manager = try await Self.managerOverAClosedHistory(data.url)
        await #expect(throws: StorageError.clearingEvidenceUnknown("the history is closed")) {
            _ = try await manager.clearEverything(isMonitoring: false, includingEvidence: false)
        }
        #expect(try Self.sequences(data.url) == [1, 2])
        #expect(try await Self.flowCount(data.url) == 2)
    }
}
