import Foundation
import Shared

/// The tunnel's own retention (storage manager spec, "Who enforces it": the loose end it names):
/// the retention limits applied at session start and on every capture rotation, with the same
/// `RetentionPass` as `tunnelvision storage apply`, and counted in `RetentionStats`.
///
/// Off the per-packet path: the event loop only asks (`sweep`, a lock and a flag), and the pass
/// runs on the concurrency pool, with its own connection to the history so a long prune never
/// holds up the tunnel's writes behind the store actor. Requests that arrive during a pass are
/// folded into one more pass with the newest recording sequence.
///
/// Before each capture file opens, the writer asks for room for it (`makeRoom`): the files the
/// plan deletes with the new file counted at its full size go at once, on the writer's thread —
/// a listing, one read of the audit evidence and a few unlinks, once per capture file — so the
/// new file never takes the directory over the size limit; the history's pruning waits for the
/// pass that follows the rotation.
///
/// Every pass, and every room made, reads which capture files hold audit evidence just before it
/// plans, in one query (the pass through its own connection; the room through a read-only one of
/// its own, since the writer's thread cannot wait on an actor). Evidence it cannot read deletes
/// nothing, neither files nor rows, and is counted in `RetentionStats` with the reason.
///
/// Beside it, the decrypted-content sweep (`PlaintextRetention`), asked for at session start and
/// on every change of the file being written (to none included), the same way.
///
/// `@unchecked Sendable`: `requested`, `running`, `counted`, `plaintextRequested` and
/// `plaintextCounted` sit behind `lock` (an `NSLock`); every other property is a `let`.
package final class RetentionSweeper: @unchecked Sendable {
    private let captures: URL
    private let plaintext: URL
    private let database: URL
    package let settings: RetentionSettings
    private let store: Result<FlowStore, StoreError>
    private let lock = NSLock()
    /// Under `lock`: the next pass's recording file (nil: capture is off, no file is open), the
    /// pass running, and the counters.
    private var requested: UInt32??
    private var running: Task<Void, Never>?
    private var counted = RetentionStats.zero
    /// Under `lock`: the next decrypted-content pass's open file, and what those passes did.
    private var plaintextRequested: UInt32??
    private var plaintextCounted = PlaintextSweepTally()

    package init(dataDirectory: URL, settings: RetentionSettings) {
        captures = DataDirectoryLayout.captures(in: dataDirectory)
        plaintext = DataDirectoryLayout.plaintext(in: dataDirectory)
        database = DataDirectoryLayout.database(in: dataDirectory)
        self.settings = settings
        store = Result { [database] () throws(StoreError) in try FlowStore(databaseURL: database, origin: "retention") }
    }

    /// Asks for a pass with `recordingSequence` as the file being written; returns at once.
    package func sweep(recordingSequence: UInt32?) {
        lock.lock()
        defer { lock.unlock() }
        requested = .some(recordingSequence)
        guard running == nil else { return }
        running = Task.detached { [self] in await drainRequests() }
    }

    /// Deletes, now, what the limits need gone before capture file `sequence` opens (the writer's
    /// `beforeOpening`); counted in `stats`, not as a sweep.
    package func makeRoom(opening sequence: UInt32) {
        let listing = listing()
        let evidence: RetentionPass.Evidence
        do { evidence = .files(try FlowStore.auditEvidenceFileSequences(inDatabaseAt: database)) } catch {
            evidence = .unreadable("\(error)")
        }
        let result = RetentionPass.makeRoom(listing: listing, evidence: evidence, settings: settings, now: Date(), opening: sequence)
        lock.withLock { counted.add(result, sweep: false) }
    }

    /// Asks for a decrypted-content pass sparing `openSequence` (nil: no file is being written).
    package func sweepPlaintext(openSequence: UInt32?) {
        lock.lock()
        defer { lock.unlock() }
        plaintextRequested = .some(openSequence)
        guard running == nil else { return }
        running = Task.detached { [self] in await drainRequests() }
    }

    /// What the decrypted-content passes deleted so far.
    var plaintextStats: PlaintextSweepTally { lock.withLock { plaintextCounted } }

    package var stats: RetentionStats {
        lock.lock()
        defer { lock.unlock() }
        return counted
    }

    /// Waits for the passes asked for so far, then closes the sweeper's history connection.
    package func finish() async {
        while let task = (lock.withLock { running }) { await task.value }
        if case .success(let store) = store { await store.close() }
    }

    private func drainRequests() async {
        while let request = nextRequest() {
            switch request {
            case .capture(let recording): await sweepCaptures(recording: recording)
            case .plaintext(let open): await sweepPlaintext(open: open)
            }
        }
    }

    private func sweepPlaintext(open: UInt32?) async {
        let outcome = await PlaintextRetention.sweep(settings, directory: plaintext, openSequence: { _ in open }, now: Date(),
                                                     openingHistory: { try store.get() })
        lock.withLock { plaintextCounted.add(outcome) }
    }

    private func listing() -> RetentionPass.Listing {
        do { return .files(try CaptureDirectory.fileInfos(in: captures)) } catch {
            return .unreadable(error.description)
        }
    }

    private func sweepCaptures(recording: UInt32?) async {
        let listing = listing()
        let history: RetentionPass.History = switch store {
        case .success(let store): .store(store)
        case .failure(let error): .unavailable("\(error)")
        }
        let result = await RetentionPass.run(listing: listing, settings: settings, now: Date(),
                                             recordingSequence: { _ in recording }, history: history)
        lock.withLock { counted.add(result) }
    }

    private enum Request {
        case capture(UInt32?)
        case plaintext(UInt32?)
    }

    /// The pending request, taken; nil (and the pass marked over) when there is none.
    private func nextRequest() -> Request? {
        lock.lock()
        defer { lock.unlock() }
        if let next = requested {
            requested = nil
            return .capture(next)
        }
        if let next = plaintextRequested {
            plaintextRequested = nil
            return .plaintext(next)
        }
        running = nil
        return nil
    }
}

/// The decrypted-content passes' deletions, summed for the tunnel's stats.
package struct PlaintextSweepTally: Sendable, Equatable {
    package var chunksExpired: UInt64 = 0
    var filesReclaimed: UInt64 = 0
    var lastFailure: String?

    mutating func add(_ outcome: PlaintextSweepOutcome) {
        chunksExpired &+= UInt64(outcome.chunksExpired + outcome.chunksDeletedWithFiles)
        filesReclaimed &+= UInt64(outcome.deletedFiles.count)
        if let failure = outcome.stopped ?? outcome.failures.last { lastFailure = failure }
    }
}
