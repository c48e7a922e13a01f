#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The execution both halves share (the app's `storage apply`, the tunnel's sweep at session start
/// and on each rotation): plan over the listing, delete the planned files — every one tried, each
/// failure counted with its reason — then prune the history to the age cutoff through the store.
/// The tunnel also makes room, files only, before it opens each capture file (`makeRoom`).
///
/// The listing is the precondition: without it nobody can say which file is being recorded, so a
/// listing that cannot be read deletes nothing at all (`Listing.unreadable`), neither files nor rows.
public enum RetentionPass {
    /// The capture directory as read just before the pass.
    public enum Listing: Sendable {
        case files([CaptureFileInfo])
        /// Why it could not be read, as the person should read it.
        case unreadable(String)
    }

    /// What came of the pass: done (with what it did and what failed), or nothing done because
    /// the captures could not be listed.
    public enum Result: Sendable, Equatable {
        case done(RetentionOutcome, RetentionPlan)
        case listingUnreadable(String)
    }

    /// The history the pass prunes.
    public enum History: Sendable {
        case store(FlowStore)
        /// None recorded yet: nothing to prune, and nothing failed.
        case none
        /// It could not be opened (why, as the person should read it): counted as a failure.
        case unavailable(String)
    }

    /// Runs the plan. `recordingSequence` picks the file being recorded out of the listing (the
    /// tunnel knows its own; the app deduces it, `CapturesPresentation.recordingSequence`).
    public static func run(listing: Listing, settings: RetentionSettings, now: Date,
                           recordingSequence: ([CaptureFileInfo]) -> UInt32?, history: History) async -> Result {
        let files: [CaptureFileInfo]
        switch listing {
        case .files(let listed): files = listed
        case .unreadable(let reason): return .listingUnreadable(reason)
        }
        let (plan, deletion) = deleteFiles(files, settings: settings, now: now, recordingSequence: recordingSequence(files))
        var failures = deletion.failures
        var pruned = 0
        if let cutoff = plan.historyCutoff {
            switch history {
            case .store(let store):
                do { pruned = try await store.prune(before: cutoff) } catch {
                    failures.append("the history could not be pruned: \(error)")
                }
            case .none: break
            case .unavailable(let problem): failures.append("the history was not pruned: \(problem)")
            }
        }
        return .done(outcome(deleted: deletion.deleted, prunedFlows: pruned, failures: failures, plan: plan), plan)
    }

    /// The files of the plan for a capture file about to be opened as `opening` (counted at its
    /// full size, `RetentionPlanner` decision 4), deleted at once; the history is left to a later
    /// `run`. What the tunnel does before each new capture file, so the new file never takes the
    /// directory over the size limit.
    public static func makeRoom(listing: Listing, settings: RetentionSettings, now: Date, opening: UInt32,
                                rotationBytes: UInt64 = RetentionPlanner.rotationBytes) -> Result {
        let files: [CaptureFileInfo]
        switch listing {
        case .files(let listed): files = listed
        case .unreadable(let reason): return .listingUnreadable(reason)
        }
        let (plan, deletion) = deleteFiles(files, settings: settings, now: now, recordingSequence: opening,
                                           rotationBytes: rotationBytes)
        return .done(outcome(deleted: deletion.deleted, prunedFlows: 0, failures: deletion.failures, plan: plan), plan)
    }

    private static func outcome(deleted: [CaptureFileInfo], prunedFlows: Int, failures: [String], plan: RetentionPlan) -> RetentionOutcome {
        RetentionOutcome(deletedFiles: deleted.map(\.sequence), bytesReclaimed: deleted.reduce(0) { $0 + $1.byteCount },
                         prunedFlows: prunedFlows, failures: failures, sizeCapUnreachable: plan.sizeCapUnreachable)
    }

    private static func deleteFiles(_ files: [CaptureFileInfo], settings: RetentionSettings, now: Date, recordingSequence: UInt32?,
                                    rotationBytes: UInt64 = RetentionPlanner.rotationBytes)
    -> (RetentionPlan, (deleted: [CaptureFileInfo], failures: [String])) {
        let plan = RetentionPlanner.plan(files: files, settings: settings, now: now, recordingSequence: recordingSequence,
                                         rotationBytes: rotationBytes)
        let doomed = files.filter { plan.filesToDelete.contains($0.sequence) }.sorted { $0.sequence < $1.sequence }
        return (plan, delete(doomed))
    }

    /// Unlinks each file, never stopping at a failure. A file already gone (another pass, a
    /// person) is neither deleted by us nor a failure.
    public static func delete(_ files: [CaptureFileInfo]) -> (deleted: [CaptureFileInfo], failures: [String]) {
        var deleted: [CaptureFileInfo] = []
        var failures: [String] = []
        for file in files {
            if unlink(file.url.path) == 0 {
                deleted.append(file)
            } else if errno != ENOENT {
                failures.append("\(file.url.lastPathComponent) could not be deleted: \(SystemError.text(errno))")
            }
        }
        return (deleted, failures)
    }
}
