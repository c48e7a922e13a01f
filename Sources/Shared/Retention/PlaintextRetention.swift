#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The decrypted-content sweep, in its load-bearing order: (1) prune the index by age, row by row;
/// (2) ask which files the index references **after** pruning; (3) delete the orphans, then apply
/// the ceiling oldest first, a victim's rows deleted with it. An index that cannot be opened or
/// asked stops the whole sweep (nothing could say which files are live); a file that will not
/// delete keeps its rows. Never throws: the outcome counts what was done and says what failed.
package enum PlaintextRetention {
    package static func sweep(_ settings: RetentionSettings, directory: URL,
                             openSequence: ([PlaintextFileInfo]) -> UInt32?, now: Date,
                             ceiling: UInt64 = RetentionSettings.plaintextByteCeiling,
                             openingHistory: () throws -> FlowStore) async -> PlaintextSweepOutcome {
        var outcome = PlaintextSweepOutcome()
        let store: FlowStore
        do { store = try openingHistory() } catch {
            outcome.stopped = "the history could not be opened, so no decrypted content was deleted: \(error)"
            return outcome
        }
        let referenced: Set<UInt32>
        do {
            outcome.chunksExpired = try await store.prunePlaintext(before: now.addingTimeInterval(-settings.maxPlaintextAge.maxAge))
            referenced = try await store.referencedPlaintextFileSequences()
        } catch {
            outcome.stopped = "the decrypted-content index could not be pruned, so no file was deleted: \(error)"
            return outcome
        }
        let files: [PlaintextFileInfo]
        do { files = try PlaintextDirectory.fileInfos(in: directory) } catch {
            outcome.stopped = "the decrypted-content files could not be listed: \(error)"
            return outcome
        }
        let open = openSequence(files)
        outcome.openSequence = open
        let plan = PlaintextRetentionPlanner.plan(files: files, referenced: referenced, openSequence: open, ceiling: ceiling)
        outcome.ceilingUnreachable = plan.ceilingUnreachable
        let bySequence = Dictionary(uniqueKeysWithValues: files.map { ($0.sequence, $0) })
        for sequence in plan.orphans { if let file = bySequence[sequence] { delete(file, into: &outcome) } }
        for sequence in plan.ceilingVictims {
            guard let file = bySequence[sequence], delete(file, into: &outcome) else { continue }
            do { outcome.chunksDeletedWithFiles += try await store.deletePlaintext(inFile: sequence) } catch {
                outcome.failures.append("the index rows of \(file.url.lastPathComponent) could not be deleted: \(error)")
            }
        }
        return outcome
    }

    /// Unlinks one file; one already gone is neither deleted by us nor a failure.
    @discardableResult
    private static func delete(_ file: PlaintextFileInfo, into outcome: inout PlaintextSweepOutcome) -> Bool {
        if unlink(file.url.path) == 0 {
            outcome.deletedFiles.append(file.sequence)
            outcome.bytesReclaimed += file.byteCount
            return true
        }
        if errno != ENOENT {
            outcome.failures.append("\(file.url.lastPathComponent) could not be deleted: \(SystemError.text(errno))")
        }
        return false
    }
}

/// What a decrypted-content sweep did.
package struct PlaintextSweepOutcome: Sendable, Equatable {
    /// Index rows deleted for their age.
    package var chunksExpired = 0
    /// Index rows deleted with a file the ceiling took.
    package var chunksDeletedWithFiles = 0
    /// Files deleted (orphans first, then ceiling victims), and their bytes.
    package var deletedFiles: [UInt32] = []
    package var bytesReclaimed: UInt64 = 0
    /// The file spared as being written, if any.
    package var openSequence: UInt32?
    package var ceilingUnreachable = false
    /// One sentence per thing that could not be done; the sweep goes on past each.
    package var failures: [String] = []
    /// Why the sweep stopped before deleting anything (the index unreachable, the listing unreadable).
    package var stopped: String?

    package init() {}
}
