import Foundation
import Shared

/// Carries the pipeline's batches to the history off the event loop: a bounded queue drained by
/// one background task that writes each batch in turn.
///
/// `persist` never blocks and never waits for SQLite: when `capacity` batches already wait, the
/// new one is refused (the pipeline counts it lost). A batch the store fails to write is lost and
/// counted too, never queued again (spec, "Fallos acotados"): retrying against a broken store
/// would grow the tunnel's memory until the system kills it. After a failure of the disk (full,
/// failing) later batches are lost unwritten for a while (`StoreFailurePause`), and the moment
/// the history stops is told once through `recordingStopped`.
///
/// The queue and its counters sit behind one `NSLock`, held only to move a batch or a number.
package final class StoreWriterQueue: FlowPersisting, Sendable {
    /// Batches that may wait; with the one being written, `capacity + 1` are held at most.
    static let defaultCapacity = 16

    private let state: Locked<State>
    private let input: AsyncStream<FlowStoreBatch>.Continuation
    private let worker: Task<Void, Never>

    fileprivate enum BatchResult {
        case written
        case failed(StoreError)
        /// Not tried: the disk failed the history a moment ago (`StoreFailurePause`).
        case skippedWhilePaused
    }

    fileprivate struct State {
        var accepted: UInt64 = 0
        var settled: UInt64 = 0
        var outcomes = PersistenceOutcomes()
        var pause = StoreFailurePause()
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Writes into `store`, whose file lives at `path`; a batch that would eat into
    /// `DiskReserve.historyBytes` fails as a full disk without being tried.
    package convenience init(store: FlowStore, path: String, capacity: Int = StoreWriterQueue.defaultCapacity,
                             recordingStopped: (@Sendable (RecordingStop) -> Void)? = nil) {
        self.init(capacity: capacity, recordingStopped: recordingStopped) { batch throws(StoreError) in
            guard DiskReserve.leaves(DiskReserve.historyBytes, needed: 0, path: path) else {
                throw .reserveReached(path: path)
            }
            _ = try await store.write(batch)
        }
    }

    /// Writes with `write`, one batch at a time, in the order accepted. `recordingStopped` is told
    /// on the writer's task when a failure of the disk stops the history; `clock` (monotonic ns)
    /// times the pause after it.
    package init(capacity: Int = StoreWriterQueue.defaultCapacity,
                 recordingStopped: (@Sendable (RecordingStop) -> Void)? = nil,
                 clock: @escaping @Sendable () -> UInt64 = MonotonicAnchor.uptimeNow,
                 write: @escaping @Sendable (FlowStoreBatch) async throws(StoreError) -> Void) {
        precondition(capacity > 0, "a store queue holds at least one batch")
        let (stream, input) = AsyncStream.makeStream(of: FlowStoreBatch.self, bufferingPolicy: .bufferingOldest(capacity))
        let state = Locked(State())
        self.state = state
        self.input = input
        worker = Task {
            for await batch in stream {
                let now = clock()
                let result: BatchResult
                if state.withLock({ $0.pause.admits(now: now) }) {
                    do throws(StoreError) {
                        try await write(batch)
                        result = .written
                    } catch {
                        result = .failed(error)
                    }
                } else {
                    result = .skippedWhilePaused
                }
                let (waiters, stop) = state.withLock { $0.settle(batch, result, now: now) }
                if let stop { recordingStopped?(stop) }
                for waiter in waiters { waiter.resume() }
            }
        }
    }

    deinit { input.finish() }

    package func persist(_ batch: FlowStoreBatch) -> Bool {
        // Counted first, so a drain started right after never misses a batch being written.
        state.withLock { $0.accepted += 1 }
        if case .enqueued = input.yield(batch) { return true }
        let waiters = state.withLock { state in
            state.accepted -= 1
            return state.accepted == state.settled ? state.takeWaiters() : []
        }
        for waiter in waiters { waiter.resume() }
        return false
    }

    package var outcomes: PersistenceOutcomes { state.withLock { $0.outcomes } }

    package nonisolated(nonsending) func drain() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state in
                if state.accepted == state.settled { return true }
                state.waiters.append(waiter)
                return false
            }
            if done { waiter.resume() }
        }
    }

    /// Stops taking batches; the worker ends after writing those already accepted.
    package func finish() async {
        input.finish()
        await worker.value
    }
}

extension StoreWriterQueue.State {
    /// Counts what became of `batch`. Returns the drain's waiters to wake, and the stop to tell
    /// when this failure stopped the history.
    fileprivate mutating func settle(_ batch: FlowStoreBatch, _ result: StoreWriterQueue.BatchResult,
                                     now: UInt64) -> ([CheckedContinuation<Void, Never>], RecordingStop?) {
        var stop: RecordingStop?
        switch result {
        case .written:
            pause.succeeded()
            outcomes.batchesWritten += 1
            outcomes.packetsWritten += UInt64(batch.packets.count)
        case .failed(let failure):
            outcomes.batchesFailed += 1
            outcomes.packetsLost += UInt64(batch.packets.count)
            outcomes.lastError = failure.description
            if failure.meansDiskFull { outcomes.diskFull = true }
            if pause.failed(failure, now: now) {
                stop = RecordingStop(history: failure, packetsWritten: outcomes.packetsWritten)
            }
        case .skippedWhilePaused:
            outcomes.batchesFailed += 1
            outcomes.packetsLost += UInt64(batch.packets.count)
        }
        settled += 1
        return (accepted == settled ? takeWaiters() : [], stop)
    }

    fileprivate mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
        defer { waiters = [] }
        return waiters
    }
}

/// A value only reachable under its `NSLock`. `@unchecked Sendable`: `value` is read and changed
/// only inside `withLock`, under `lock`; it is itself `Sendable`, so nothing it holds is shared
/// with a thread that could touch it outside the lock.
private final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
