#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The execution both halves share (the app's `storage apply`, the tunnel's sweep at session start
/// and on each rotation): plan over the listing, delete the planned files — every one tried, each
/// failure counted with its reason — then prune the history to the age cutoff through the store.
/// The tunnel also makes room, files only, before it opens each capture file (`makeRoom`).
///
/// Two readings are the precondition, and without either nothing at all is deleted, neither files
/// nor rows: the listing (without it nobody can say which file is being recorded,
/// `Listing.unreadable`), and the capture files audit evidence holds, read from the history in one
/// query just before planning (without it nobody can say which files the limits must spare,
/// `Evidence.unreadable`: never taken for "none").
package enum RetentionPass {
    /// The capture directory as read just before the pass.
    package enum Listing: Sendable {
        case files([CaptureFileInfo])
        /// Why it could not be read, as the person should read it.
        case unreadable(String)
    }

    /// The capture files holding audit evidence (`FlowStore.auditEvidenceFileSequences()`), read
    /// just before the pass.
    package enum Evidence: Sendable, Equatable {
        case files(Set<UInt32>)
        /// Why it could not be read, as the person should read it.
        case unreadable(String)
    }

    /// What came of the pass: done (with what it did and what failed), or nothing done because
    /// the captures could not be listed or the evidence could not be read.
    package enum Result: Sendable, Equatable {
        case done(RetentionOutcome, RetentionPlan)
        case listingUnreadable(String)
        case evidenceUnreadable(String)
    }

    /// What a pass that could not read the evidence says (the tunnel's last retention error, the
    /// app's outcome): why, and that nothing went.
    package static func evidenceUnreadableSentence(_ reason: String) -> String {
        "the capture files holding audit evidence could not be read, so nothing was deleted, "
            + "neither captures nor connections: \(reason)"
    }

    /// The history the pass reads the evidence from and prunes.
    package enum History: Sendable {
        case store(FlowStore)
        /// None recorded yet: no evidence, nothing to prune, and nothing failed.
        case none
        /// It could not be opened (why, as the person should read it): the evidence cannot be
        /// read, so nothing is deleted.
        case unavailable(String)
    }

    /// Runs the plan. `recordingSequence` picks the file being recorded out of the listing (the
    /// tunnel knows its own; the app deduces it, `CapturesPresentation.recordingSequence`). The
    /// evidence is read from `history` after the listing, just before planning.
    package static func run(listing: Listing, settings: RetentionSettings, now: Date,
                           recordingSequence: ([CaptureFileInfo]) -> UInt32?, history: History) async -> Result {
        let files: [CaptureFileInfo]
        switch listing {
        case .files(let listed): files = listed
        case .unreadable(let reason): return .listingUnreadable(reason)
        }
        let evidence: Set<UInt32>
        switch await Self.evidence(in: history) {
        case .files(let held): evidence = held
        case .unreadable(let reason): return .evidenceUnreadable(reason)
        }
        let (plan, deletion) = deleteFiles(files, settings: settings, now: now, recordingSequence: recordingSequence(files),
                                           evidence: evidence)
        var failures = deletion.failures
        var pruned = 0
        if let cutoff = plan.historyCutoff, case .store(let store) = history {
            do { pruned = try await store.prune(before: cutoff) } catch {
                failures.append("the history could not be pruned: \(error)")
            }
        }
        return .done(outcome(deleted: deletion.deleted, prunedFlows: pruned, failures: failures, plan: plan), plan)
    }

    /// The capture files audit evidence holds now, in one query: none without a history (nothing
    /// was ever recorded, so no audit either); unreadable when the history cannot be opened or asked.
    package static func evidence(in history: History) async -> Evidence {
        switch history {
        case .store(let store):
            do { return .files(try await store.auditEvidenceFileSequences()) } catch {
                return .unreadable("\(error)")
            }
        case .none: return .files([])
        case .unavailable(let problem): return .unreadable("the history could not be opened: \(problem)")
        }
    }

    /// The files of the plan for a capture file about to be opened as `opening` (counted at its
    /// full size, `RetentionPlanner` decision 4), deleted at once; the history is left to a later
    /// `run`. What the tunnel does before each new capture file, so the new file never takes the
    /// directory over the size limit. `evidence` is read by the caller just before, as `run` reads it.
    package static func makeRoom(listing: Listing, evidence: Evidence, settings: RetentionSettings, now: Date, opening: UInt32,
                                rotationBytes: UInt64 = RetentionPlanner.rotationBytes) -> Result {
        let files: [CaptureFileInfo]
        switch listing {
        case .files(let listed): files = listed
        case .unreadable(let reason): return .listingUnreadable(reason)
        }
        let held: Set<UInt32>
        switch evidence {
        case .files(let read): held = read
        case .unreadable(let reason): return .evidenceUnreadable(reason)
        }
        let (plan, deletion) = deleteFiles(files, settings: settings, now: now, recordingSequence: opening, evidence: held,
                                           rotationBytes: rotationBytes)
        return .done(outcome(deleted: deletion.deleted, prunedFlows: 0, failures: deletion.failures, plan: plan), plan)
    }

    private static func outcome(deleted: [CaptureFileInfo], prunedFlows: Int, failures: [String], plan: RetentionPlan) -> RetentionOutcome {
        RetentionOutcome(deletedFiles: deleted.map(\.sequence), bytesReclaimed: deleted.reduce(0) { $0 + $1.byteCount },
                         prunedFlows: prunedFlows, failures: failures, sizeCapUnreachable: plan.sizeCapUnreachable,
                         sizeCapHeldByEvidence: plan.sizeCapHeldByEvidence, keptEvidence: plan.keptEvidence)
    }

    private static func deleteFiles(_ files: [CaptureFileInfo], settings: RetentionSettings, now: Date, recordingSequence: UInt32?,
                                    evidence: Set<UInt32>, rotationBytes: UInt64 = RetentionPlanner.rotationBytes)
    -> (RetentionPlan, (deleted: [CaptureFileInfo], failures: [String])) {
        let plan = RetentionPlanner.plan(files: files, settings: settings, now: now, recordingSequence: recordingSequence,
                                         evidenceSequences: evidence, rotationBytes: rotationBytes)
        let doomed = files.filter { plan.filesToDelete.contains($0.sequence) }.sorted { $0.sequence < $1.sequence }
        return (plan, delete(doomed))
    }

    /// Unlinks each file, never stopping at a failure. A file already gone (another pass, a
    /// person) is neither deleted by us nor a failure.
    package static func delete(_ files: [CaptureFileInfo]) -> (deleted: [CaptureFileInfo], failures: [String]) {
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
