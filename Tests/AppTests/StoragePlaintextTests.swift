import Foundation
import TestSupport
import Testing
@testable import App
import Shared

/// Decrypted content's storage against real `.tvpt` files from the real writer and a real history:
/// the figure, *Delete decrypted content*, the sweep in `storage apply`, and *Delete everything*.
@Suite(.serialized) struct StoragePlaintextTests {
    static func manager(_ data: URL) -> StorageManager {
        StorageManager(library: CaptureLibrary(dataDirectory: data), plaintextDirectory: DataDirectoryLayout.plaintext(in: data)) {
            FileManager.default.fileExists(atPath: DataDirectoryLayout.database(in: data).path)
                ? try FlowStore(databaseURL: DataDirectoryLayout.database(in: data), origin: "read") : nil
        }
    }

    static func sequences(_ data: URL) throws -> [UInt32] {
        try PlaintextDirectory.fileInfos(in: DataDirectoryLayout.plaintext(in: data)).map(\.sequence)
    }

    static func rows(_ data: URL) async throws -> Int {
        let store = try FlowStore(databaseURL: DataDirectoryLayout.database(in: data))
        let count = try await store.plaintextChunkCount()
        await store.close()
        return count
    }

    static func size(_ url: URL) throws -> UInt64 {
        UInt64(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as! Int)
    }

    @Test("usage counts the .tvpt files' real bytes inside the total; no folder yet is 0 files")
    func usageCountsRealFiles() async throws {
        let data = TemporaryDirectory("storage-plaintext")
        let empty = try await Self.manager(data.url).usage()
        #expect(empty.plaintextBytes == 0 && empty.plaintextFileCount == 0 && empty.plaintextProblem == nil)
        let files = try await PlaintextFixture.content(in: data.url, chunks: 3, daysAgo: 0)
        let onDisk = try files.reduce(UInt64(0)) { $0 + (try Self.size($1)) }
        let usage = try await Self.manager(data.url).usage()
        #expect(usage.plaintextFileCount == 3 && usage.plaintextBytes == onDisk && onDisk > 0)
        #expect(usage.totalBytes == usage.captureBytes + (usage.historyBytes ?? 0) + onDisk && usage.isComplete)
        #expect(StorageReport.usageLines(usage).contains { $0.hasPrefix("decrypted \(ByteCountText.binary(onDisk)) in 3 files") })
    }

    @Test("a decrypted-content folder that cannot be listed is reported with why, never as zero")
    func unreadableFolderIsReported() async throws {
        let data = TemporaryDirectory("storage-plaintext")
        try await PlaintextFixture.content(in: data.url, chunks: 1, daysAgo: 0)
        // A file where the folder should be cannot be listed (as root, modes do not stop a read).
        let folder = DataDirectoryLayout.plaintext(in: data.url)
        try FileManager.default.removeItem(at: folder)
        try Data("not a folder".utf8).write(to: folder)
        let usage = try await Self.manager(data.url).usage()
        #expect(usage.plaintextBytes == nil && usage.plaintextFileCount == nil && !usage.isComplete)
        #expect(usage.plaintextProblem?.contains("decrypted-content folder cannot be listed") == true)
        let lines = StorageReport.usageLines(usage)
        #expect(lines.contains { $0.hasPrefix("decrypted cannot be read: ") })
        #expect(lines.last?.contains("at least") == true && lines.last?.contains("decrypted content's") == true)
        let json = StorageReport.usageJSON(usage, settings: .default, problem: nil, preview: nil, presence: .absent)
        #expect(json.contains(#""plaintext":{"bytes":null,"bytesText":"unknown","files":null"#))
    }

    @Test("delete decrypted content: every row and file go, the file being written is kept and said, history stays")
    func clearSparesTheOpenFile() async throws {
        let data = TemporaryDirectory("storage-plaintext")
        let files = try await PlaintextFixture.content(in: data.url, chunks: 3, daysAgo: 0)
        let manager = Self.manager(data.url)
        let cleared = await manager.clearPlaintext(isMonitoring: true)
        #expect(cleared.failures.isEmpty, "\(cleared.failures)")
        #expect(cleared.indexRowsCleared == 3 && cleared.sweep.deletedFiles == [1, 2])
        #expect(try cleared.spared?.sequence == 3 && cleared.spared?.byteCount == (try Self.size(files[2])))
        #expect(try Self.sequences(data.url) == [3])
        #expect(try await Self.rows(data.url) == 0)
        let lines = StorageReport.plaintextLines(cleared)
        #expect(lines[0].hasPrefix("decrypted content: deleted 2 files"))
        #expect(lines.contains { $0.contains("kept \(files[2].lastPathComponent)") && $0.contains("running tunnel") })
        let store = try FlowStore(databaseURL: DataDirectoryLayout.database(in: data.url))
        #expect(try await store.flowCount() == 1)
        await store.close()
        // No tunnel: nothing is spared.
        let idle = await manager.clearPlaintext(isMonitoring: false)
        #expect(try idle.sweep.deletedFiles == [3] && idle.spared == nil && (try Self.sequences(data.url)).isEmpty)
    }

    @Test("with no history yet every .tvpt file is an orphan: a clear deletes them all but the one being written")
    func clearWithoutHistory() async throws {
        let data = TemporaryDirectory("storage-plaintext")
        let folder = DataDirectoryLayout.plaintext(in: data.url)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for sequence in [1, 2] as [UInt32] {
            try Data(repeating: 7, count: 300).write(to: folder.appendingPathComponent(
                PlaintextFileName.make(sequence: sequence, nanosecondsSince1970: 1_796_000_000_000_000_000)))
        }
        let live = await Self.manager(data.url).clearPlaintext(isMonitoring: true)
        #expect(live.sweep.deletedFiles == [1] && live.spared?.sequence == 2 && live.failures.isEmpty)
        let idle = await Self.manager(data.url).clearPlaintext(isMonitoring: false)
        #expect(try idle.sweep.deletedFiles == [2] && (try Self.sequences(data.url)).isEmpty)
    }

    @Test("storage apply sweeps expired decrypted content in the sweep's order, even with both capture limits off")
    func applySweepsExpired() async throws {
        let data = TemporaryDirectory("storage-plaintext")
        try await PlaintextFixture.content(in: data.url, chunks: 2, daysAgo: 2, port: 41_000)
        let question = StorageQuestion(action: .apply, dataDirectory: data.url.path)
        try SettingsStore(dataDirectory: data.url).save(AppSettings(retention: RetentionSettings(maxAge: .unlimited,
                                                                                                maxCaptureSize: .unlimited,
                                                                                                maxPlaintextAge: .oneDay)))
        let outcome = try await question.apply(presence: .absent)
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        #expect(outcome.plaintext.sweep.chunksExpired == 2 && outcome.plaintext.sweep.deletedFiles == [1, 2])
        let rowsLeft = try await Self.rows(data.url)
        #expect(try Self.sequences(data.url).isEmpty && rowsLeft == 0)
        #expect(StorageReport.outcomeLines(outcome).contains { $0.hasPrefix("decrypted content: deleted 2 files") })
        // A week's expiry keeps content two days old.
        let kept = TemporaryDirectory("storage-plaintext")
        try await PlaintextFixture.content(in: kept.url, chunks: 1, daysAgo: 2)
        try SettingsStore(dataDirectory: kept.url).save(AppSettings(retention: RetentionSettings(maxPlaintextAge: .oneWeek)))
        let none = try await StorageQuestion(action: .apply, dataDirectory: kept.url.path).apply(presence: .absent)
        #expect(try none.plaintext.sweep.deletedFiles.isEmpty && (try Self.sequences(kept.url)) == [1])
        #expect(StorageReport.outcomeLines(none).contains("decrypted content: nothing to delete"))
    }

    @Test("delete everything deletes the decrypted content too and names it in its question")
    func clearEverythingIncludesPlaintext() async throws {
        let data = TemporaryDirectory("storage-plaintext")
        try RetentionFixture.captures(in: data.url, startedDaysAgo: [1])
        try await PlaintextFixture.content(in: data.url, chunks: 2, daysAgo: 0)
        let question = StorageQuestion(action: .clear(confirmed: true), dataDirectory: data.url.path)
        let scope = try await question.clearingPlan(presence: .absent)
        #expect(StorageReport.clearQuestion(connections: scope.connections, auditConnections: scope.auditConnections, files: scope.files,
                                            plaintext: scope.plaintext)
            .contains("and 2 files of decrypted content ("))
        let outcome = try await question.clear(presence: .absent)
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        #expect(try outcome.plaintext.sweep.deletedFiles == [1, 2] && (try Self.sequences(data.url)).isEmpty)
    }

    @Test("the card: the keep switch turns on only with inspection on, off always; the ceiling's sentence is the constant's")
    func card() {
        #expect(!DecryptedContentCard(AppSettings(tlsInspectionEnabled: false, plaintextPersistenceEnabled: false)).keepSwitchEnabled)
        #expect(DecryptedContentCard(AppSettings(tlsInspectionEnabled: false, plaintextPersistenceEnabled: true)).keepSwitchEnabled)
        #expect(DecryptedContentCard(AppSettings(tlsInspectionEnabled: true)).keepSwitchEnabled)
        #expect(DecryptedContentCard(AppSettings(tlsInspectionEnabled: true)).keepHint == nil)
        let card = DecryptedContentCard(AppSettings())
        #expect(card.ceilingBytes == RetentionSettings.plaintextByteCeiling && RetentionSettings.plaintextByteCeiling == 512 << 20)
        #expect(card.ceilingSentence.contains(ByteCountText.binary(RetentionSettings.plaintextByteCeiling)))
        #expect(card.ceilingSentence.contains("512.0 MiB"))
    }
}
