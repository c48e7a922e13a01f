import Foundation
import Shared

/// The one place that knows the captures, the history and the decrypted content at once (storage
/// manager spec): what they weigh, the retention limits applied to all (`RetentionPass` and
/// `PlaintextRetention`, the same the tunnel runs), and deleting — rows and files together, since
/// a cleanup of only one half would leave the disk full or the history pointing at bytes that are gone.
///
/// The file being recorded is deduced from the listing (`CapturesPresentation.recordingSequence`)
/// and from nowhere else, and so is the decrypted-content file being written
/// (`PlaintextRetentionPlanner.openSequence`); a listing that cannot be read deletes nothing (`StorageError`).
///
/// Audit evidence (audit.md § Retention): applying the limits reads which capture files hold it
/// just before planning and keeps them whole; evidence that cannot be read deletes no capture
/// and no connection (the outcome says why). Deleting everything deletes evidence too, so it
/// refuses while the history holds any (or cannot say) unless the caller says the person agreed.
package actor StorageManager {
    /// Opens the history for this call; nil when there is none yet (nothing to count or prune).
    package typealias StoreOpener = @Sendable () throws -> FlowStore?

    private let library: CaptureLibrary
    /// `<data-dir>/plaintext`, where the `.tvpt` files are.
    let plaintextDirectory: URL
    let openStore: StoreOpener

    package init(library: CaptureLibrary, plaintextDirectory: URL, openingStore: @escaping StoreOpener) {
        self.library = library
        self.plaintextDirectory = plaintextDirectory
        openStore = openingStore
    }

    package func usage() async throws(StorageError) -> StorageUsage {
        let files = try await listing()
        let captureBytes = files.reduce(UInt64(0)) { $0 + $1.byteCount }
        let history = await withHistory { store async throws -> (UInt64, Int, Int) in
            (UInt64(max(0, await store.totalBytesOnDisk())), try await store.flowCount(), try await store.auditFlowCount())
        }
        let plaintext = Result { () throws(DirectoryError) in try PlaintextDirectory.fileInfos(in: plaintextDirectory) }
        let plaintextBytes = (try? plaintext.get()).map { $0.reduce(UInt64(0)) { $0 + $1.byteCount } }
        let plaintextProblem: String? = if case .failure(let error) = plaintext {
            "the decrypted-content folder cannot be listed: \(error)"
        } else { nil }
        switch history {
        case .success(let figures):
            return StorageUsage(captureBytes: captureBytes, captureFileCount: files.count,
                                historyBytes: figures?.0 ?? 0, historyFlowCount: figures?.1 ?? 0, auditFlowCount: figures?.2 ?? 0,
                                plaintextBytes: plaintextBytes, plaintextFileCount: (try? plaintext.get())?.count,
                                plaintextProblem: plaintextProblem)
        case .failure(let problem):
            return StorageUsage(captureBytes: captureBytes, captureFileCount: files.count, historyBytes: nil,
                                historyFlowCount: nil, auditFlowCount: nil, historyProblem: problem.description,
                                plaintextBytes: plaintextBytes, plaintextFileCount: (try? plaintext.get())?.count,
                                plaintextProblem: plaintextProblem)
        }
    }

    /// Applies `settings` now: the planned files deleted (never the one being recorded while a
    /// tunnel is live, never one holding audit evidence) and the history pruned to the age limit.
    /// Returns what was done and what failed, and the plan carried out — none when the evidence
    /// could not be read, in which case nothing was deleted and the outcome's failure says why.
    @discardableResult
    package func enforce(_ settings: RetentionSettings, isMonitoring: Bool, now: Date = Date()) async throws(StorageError)
    -> (outcome: RetentionOutcome, plan: RetentionPlan?) {
        let files = try await listing()
        let (history, opened) = Self.openHistory(openStore)
        let result = await RetentionPass.run(listing: .files(files), settings: settings, now: now,
                                             recordingSequence: { CapturesPresentation.recordingSequence(files: $0, isMonitoring: isMonitoring) },
                                             history: history)
        await opened?.close()
        switch result {
        case let .done(outcome, plan): return (outcome, plan)
        case let .listingUnreadable(reason): throw .capturesUnavailable(reason)
        case let .evidenceUnreadable(reason): return (RetentionOutcome(failures: [RetentionPass.evidenceUnreadableSentence(reason)]), nil)
        }
    }

    /// What `enforce` would do now, without doing it (what the storage screen says beforehand).
    package func preview(_ settings: RetentionSettings, isMonitoring: Bool, now: Date = Date()) async throws(StorageError)
    -> RetentionPreview {
        let files = try await listing()
        switch await Self.evidence(opening: openStore) {
        case .files(let held):
            return .plan(RetentionPlanner.plan(files: files, settings: settings, now: now,
                                               recordingSequence: CapturesPresentation.recordingSequence(files: files, isMonitoring: isMonitoring),
                                               evidenceSequences: held))
        case .unreadable(let reason): return .nothing(reason)
        }
    }

    /// What `clearEverything` would delete: every connection (of which `auditConnections` are
    /// audit evidence), and every capture but the one being recorded. The counts are nil when the
    /// history cannot be read.
    package func clearingPlan(isMonitoring: Bool) async throws(StorageError)
    -> (connections: Int?, auditConnections: Int?, files: [CaptureFileInfo]) {
        let files = try await listing()
        let recording = CapturesPresentation.recordingSequence(files: files, isMonitoring: isMonitoring)
        let count = await withHistory { store async throws in (try await store.flowCount(), try await store.auditFlowCount()) }
        let counts: (Int, Int)? = switch count {
        case .success(let counted): counted ?? (0, 0)
        case .failure: nil
        }
        return (counts?.0, counts?.1, files.filter { $0.sequence != recording })
    }

    /// Deletes every connection and every capture file but the one being recorded. While a tunnel
    /// is live its session row is kept (`FlowStore.clearAll(keepingOpenSessions:)`): the tunnel is
    /// still writing in it and dates its end on stop; its flows go like any other. Audit projects
    /// and sessions stay, but their evidence goes with the rest, so unless `includingEvidence` (the
    /// person agreed, having been told) it refuses, deleting nothing, while the history holds any
    /// evidence or cannot say whether it does.
    package func clearEverything(isMonitoring: Bool, includingEvidence: Bool) async throws(StorageError) -> RetentionOutcome {
        let files = try await listing()
        if !includingEvidence {
            switch await withHistory({ store async throws in try await store.auditFlowCount() }) {
            case .success(let count): if let count, count > 0 { throw .clearingWouldDeleteEvidence(connections: count) }
            case .failure(let problem): throw .clearingEvidenceUnknown(problem.description)
            }
        }
        let recording = CapturesPresentation.recordingSequence(files: files, isMonitoring: isMonitoring)
        let deletion = RetentionPass.delete(files.filter { $0.sequence != recording })
        var failures = deletion.failures
        let cleared = await withHistory { store async throws -> Int in
            let count = try await store.flowCount()
            try await store.clearAll(keepingOpenSessions: isMonitoring)
            return count
        }
        var pruned = 0
        switch cleared {
        case .success(let count): pruned = count ?? 0
        case .failure(let problem): failures.append("the history was not cleared: \(problem)")
        }
        return RetentionOutcome(deletedFiles: deletion.deleted.map(\.sequence),
                                bytesReclaimed: deletion.deleted.reduce(0) { $0 + $1.byteCount },
                                prunedFlows: pruned, failures: failures)
    }

    /// Which capture files hold audit evidence now, in one query over the history `opening`
    /// opens (and closes after): none without a history, unreadable when it will not open or answer.
    package static func evidence(opening: StoreOpener) async -> RetentionPass.Evidence {
        let (history, opened) = openHistory(opening)
        let evidence = await RetentionPass.evidence(in: history)
        await opened?.close()
        return evidence
    }

    /// The history for a pass, and the store to close after it.
    private static func openHistory(_ opening: StoreOpener) -> (RetentionPass.History, FlowStore?) {
        do {
            let opened = try opening()
            return (opened.map { .store($0) } ?? .none, opened)
        } catch {
            return (.unavailable("\(error)"), nil)
        }
    }

    private func listing() async throws(StorageError) -> [CaptureFileInfo] {
        do {
            return try await library.files()
        } catch {
            throw .capturesUnavailable(error.description)
        }
    }

    struct HistoryProblem: Error, CustomStringConvertible { let description: String }

    /// `body` over the history, which is closed afterwards; `.success(nil)` when there is none yet.
    func withHistory<T: Sendable>(_ body: (FlowStore) async throws -> T) async -> Result<T?, HistoryProblem> {
        let store: FlowStore?
        do { store = try openStore() } catch { return .failure(HistoryProblem(description: "\(error)")) }
        guard let store else { return .success(nil) }
        let result: Result<T?, HistoryProblem>
        do { result = .success(try await body(store)) } catch { result = .failure(HistoryProblem(description: "\(error)")) }
        await store.close()
        return result
    }
}

/// What applying the limits now would do (`StorageManager.preview`), said before it is done.
package enum RetentionPreview: Sendable, Equatable {
    case plan(RetentionPlan)
    /// Nothing would be deleted: which captures hold audit evidence cannot be read (why).
    case nothing(String)

    package var plan: RetentionPlan? { if case .plan(let plan) = self { plan } else { nil } }
}
