#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

extension StorageManager {
    /// The decrypted-content sweep (`PlaintextRetention`, in its order) with `settings` now: the
    /// index pruned to the expiry, the orphans and then the ceiling's oldest files deleted, never
    /// the file being written.
    package func sweepPlaintext(_ settings: RetentionSettings, isMonitoring: Bool, now: Date = Date()) async -> PlaintextDeletion {
        await withPlaintextIndex(settings, isMonitoring: isMonitoring, now: now) { _ throws(StoreError) in 0 }
    }

    /// Deletes the decrypted content alone (*Delete decrypted content*): every index row cleared,
    /// then the sweep deletes every file no row references — all but the one being written,
    /// which is measured afterwards and named. History and captures stay.
    package func clearPlaintext(isMonitoring: Bool, now: Date = Date()) async -> PlaintextDeletion {
        await withPlaintextIndex(RetentionSettings(), isMonitoring: isMonitoring, now: now) { store throws(StoreError) in
            try await store.clearPlaintext()
        }
    }

    /// `first` over the index (clearing it, or nothing), then the sweep; a `first` that fails
    /// deletes no file, since the index would still name them.
    private func withPlaintextIndex(_ settings: RetentionSettings, isMonitoring: Bool, now: Date,
                                    first: (FlowStore) async throws(StoreError) -> Int) async -> PlaintextDeletion {
        let directory = plaintextDirectory
        let store: FlowStore?
        do { store = try openStore() } catch {
            var stopped = PlaintextSweepOutcome()
            stopped.stopped = "the history could not be opened, so no decrypted content was deleted: \(error)"
            return PlaintextDeletion(indexRowsCleared: 0, sweep: stopped, spared: nil)
        }
        guard let store else { return Self.sweepWithoutIndex(directory, isMonitoring: isMonitoring) }
        let cleared: Int
        do { cleared = try await first(store) } catch {
            await store.close()
            var stopped = PlaintextSweepOutcome()
            stopped.stopped = "the decrypted-content index could not be cleared, so no file was deleted: \(error)"
            return PlaintextDeletion(indexRowsCleared: 0, sweep: stopped, spared: nil)
        }
        let sweep = await PlaintextRetention.sweep(settings, directory: directory,
                                                   openSequence: { PlaintextRetentionPlanner.openSequence(files: $0, isMonitoring: isMonitoring) },
                                                   now: now, openingHistory: { store })
        await store.close()
        // Measured after the sweep: what the person is told survived.
        let spared = sweep.openSequence.flatMap { open in
            (try? PlaintextDirectory.fileInfos(in: directory))?.first { $0.sequence == open }
        }
        return PlaintextDeletion(indexRowsCleared: cleared, sweep: sweep, spared: spared)
    }
}

extension StorageManager {
    /// No history yet: no row references any file, so every file is an orphan (the planner's own
    /// rule) — all go but the one being written.
    static func sweepWithoutIndex(_ directory: URL, isMonitoring: Bool) -> PlaintextDeletion {
        var outcome = PlaintextSweepOutcome()
        let files: [PlaintextFileInfo]
        do { files = try PlaintextDirectory.fileInfos(in: directory) } catch {
            outcome.stopped = "the decrypted-content files could not be listed: \(error)"
            return PlaintextDeletion(indexRowsCleared: 0, sweep: outcome, spared: nil)
        }
        let open = PlaintextRetentionPlanner.openSequence(files: files, isMonitoring: isMonitoring)
        outcome.openSequence = open
        let plan = PlaintextRetentionPlanner.plan(files: files, referenced: [], openSequence: open,
                                                  ceiling: RetentionSettings.plaintextByteCeiling)
        for file in files where plan.orphans.contains(file.sequence) {
            if unlink(file.url.path) == 0 {
                outcome.deletedFiles.append(file.sequence)
                outcome.bytesReclaimed += file.byteCount
            } else if errno != ENOENT {
                outcome.failures.append("\(file.url.lastPathComponent) could not be deleted: \(SystemError.text(errno))")
            }
        }
        return PlaintextDeletion(indexRowsCleared: 0, sweep: outcome, spared: files.first { $0.sequence == open })
    }
}

/// What deleting decrypted content did (a sweep, or a clear then a sweep).
package struct PlaintextDeletion: Sendable, Equatable {
    /// Index rows a clear deleted (0 for a sweep, whose own are in `sweep`).
    package let indexRowsCleared: Int
    package let sweep: PlaintextSweepOutcome
    /// The file kept as being written, with its size measured after the sweep.
    package let spared: PlaintextFileInfo?

    package init(indexRowsCleared: Int, sweep: PlaintextSweepOutcome, spared: PlaintextFileInfo?) {
        self.indexRowsCleared = indexRowsCleared
        self.sweep = sweep
        self.spared = spared
    }

    /// Index rows deleted in all: cleared, expired, and with a file the ceiling took.
    var indexRowsDeleted: Int { indexRowsCleared + sweep.chunksExpired + sweep.chunksDeletedWithFiles }
    package var didChangeAnything: Bool { indexRowsDeleted > 0 || !sweep.deletedFiles.isEmpty }
    /// What could not be done, the sweep's stop first.
    package var failures: [String] { (sweep.stopped.map { [$0] } ?? []) + sweep.failures }
}
