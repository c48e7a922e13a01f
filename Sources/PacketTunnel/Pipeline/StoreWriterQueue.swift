import Foundation
import Shared

/// Carries the pipeline's batches to the history off the event loop: a bounded queue drained by
/// one background task that writes each batch in turn.
///
/// `persist` never blocks and never waits for SQLite: when `capacity` batches already wait, the
/// new one is refused (the pipeline counts it lost). A batch the store fails to write is lost and
/// counted too, never queued again (spec, "Fallos acotados"): retrying against a broken store
/// would grow the tunnel's memory until the system kills it.
///
/// The queue and its counters sit behind one `NSLock`, held only to move a batch or a number.
package final class StoreWriterQueue: FlowPersisting, Sendable {
    /// Batches that may wait; with the one being written, `capacity + 1` are held at most.
    package static let defaultCapacity = 16

    private let state: Locked<State>
    private let input: AsyncStream<FlowStoreBatch>.Continuation
    private let worker: Task<Void, Never>

    fileprivate struct State {
        var accepted: UInt64 = 0
        var settled: UInt64 = 0
        var outcomes = PersistenceOutcomes()
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Writes into `store`.
    package convenience init(store: FlowStore, capacity: Int = StoreWriterQueue.defaultCapacity) {
        self.init(capacity: capacity) { batch throws(StoreError) in _ = try await store.write(batch) }
    }

    /// Writes with `write`, one batch at a time, in the order accepted.
    package init(capacity: Int = StoreWriterQueue.defaultCapacity,
                 write: @escaping @Sendable (FlowStoreBatch) async throws(StoreError) -> Void) {
        precondition(capacity > 0, "a store queue holds at least one batch")
        let (stream, input) = AsyncStream.makeStream(of: FlowStoreBatch.self, bufferingPolicy: .bufferingOldest(capacity))
        let state = Locked(State())
        self.state = state
        self.input = input
        worker = Task {
            for await batch in stream {
                let failure: StoreError?
                do throws(StoreError) {
                    try await write(batch)
                    failure = nil
                } catch {
                    failure = error
                }
                let waiters = state.withLock { state in
                    if let failure {
                        state.outcomes.batchesFailed += 1
                        state.outcomes.packetsLost += UInt64(batch.packets.count)
                        state.outcomes.lastError = failure.description
                    } else {
                        state.outcomes.batchesWritten += 1
                    }
                    state.settled += 1
                    return state.accepted == state.settled ? state.takeWaiters() : []
                }
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
    fileprivate mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
        defer { waiters = [] }
        return waiters
    }
}

/// A value only reachable under its `NSLock`. `@unchecked`: the lock is what makes it Sendable.
private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
