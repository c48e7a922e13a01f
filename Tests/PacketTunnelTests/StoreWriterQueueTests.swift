import Foundation
import Testing
import Shared
@testable import PacketTunnel

/// The store's stand-in: records each batch it is asked to write, and holds each write until let
/// through when `holding`.
actor ScriptedStore {
    private(set) var attempts: [FlowStoreBatch] = []
    private var holding: Bool
    private var held: [CheckedContinuation<Void, Never>] = []
    /// Batches with this many packets fail.
    private let failingSize: Int?

    init(holding: Bool = false, failingSize: Int? = nil) {
        self.holding = holding
        self.failingSize = failingSize
    }

    func write(_ batch: FlowStoreBatch) async throws(StoreError) {
        attempts.append(batch)
        if holding { await withCheckedContinuation { held.append($0) } }
        if batch.packets.count == failingSize { throw .closed }
    }

    func release() {
        holding = false
        for waiter in held { waiter.resume() }
        held = []
    }

    /// Waits (briefly) until `count` writes have started.
    func waitForAttempts(_ count: Int) async {
        for _ in 0..<10_000 where attempts.count < count { await Task.yield() }
    }
}

@Suite struct StoreWriterQueueTests {
    static func batch(packets: Int) -> FlowStoreBatch {
        let meta = PacketMeta(timestamp: 1, flowKey: FlowKey(proto: .udp, source: PipelineBench.device4,
                                                            destination: PipelineBench.remote4),
                              direction: .outbound, length: 40, tcpFlags: [], capture: nil)
        return FlowStoreBatch(packets: Array(repeating: meta, count: packets))
    }

    @Test func batchesAreWrittenInTheOrderAcceptedAndDrainWaitsForThem() async {
        let store = ScriptedStore()
        let queue = StoreWriterQueue { batch throws(StoreError) in try await store.write(batch) }
        for size in 1...5 { #expect(queue.persist(Self.batch(packets: size))) }
        await queue.drain()
        #expect(await store.attempts.map(\.packets.count) == [1, 2, 3, 4, 5])
        #expect(queue.outcomes.batchesWritten == 5 && queue.outcomes.batchesFailed == 0)
        await queue.drain()
    }

    @Test func aFullQueueRefusesWithoutBlocking() async {
        let store = ScriptedStore(holding: true)
        let queue = StoreWriterQueue(capacity: 2) { batch throws(StoreError) in try await store.write(batch) }
        #expect(queue.persist(Self.batch(packets: 1)))
        await store.waitForAttempts(1)
        #expect(queue.persist(Self.batch(packets: 2)))
        #expect(queue.persist(Self.batch(packets: 3)))
        #expect(!queue.persist(Self.batch(packets: 4)))
        await store.release()
        await queue.drain()
        #expect(await store.attempts.map(\.packets.count) == [1, 2, 3])
        #expect(queue.outcomes.batchesWritten == 3)
    }

    @Test func aFailedBatchIsCountedAndNeverWrittenAgain() async {
        let store = ScriptedStore(failingSize: 2)
        let queue = StoreWriterQueue { batch throws(StoreError) in try await store.write(batch) }
        for size in 1...3 { #expect(queue.persist(Self.batch(packets: size))) }
        await queue.drain()
        #expect(await store.attempts.map(\.packets.count) == [1, 2, 3])
        let outcomes = queue.outcomes
        #expect(outcomes.batchesWritten == 2 && outcomes.batchesFailed == 1 && outcomes.packetsLost == 2)
        #expect(outcomes.lastError == StoreError.closed.description)
    }

    @Test func afterFinishNothingIsAccepted() async {
        let queue = StoreWriterQueue { _ throws(StoreError) in }
        #expect(queue.persist(Self.batch(packets: 1)))
        await queue.finish()
        #expect(!queue.persist(Self.batch(packets: 1)))
        await queue.drain()
        #expect(queue.outcomes.batchesWritten == 1)
    }
}
