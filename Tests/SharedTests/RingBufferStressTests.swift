import Fixtures
import Foundation
import TestSupport
import Testing
@testable import Shared

/// Producer and consumer on two threads at full speed. Every record must arrive whole (no field
/// from another write), in order, and received + dropped must account for every push. These run
/// under ThreadSanitizer in scripts/test too.
@Suite("The live-feed ring under two threads", .serialized)
struct RingBufferStressTests {
    let directory = TemporaryDirectory("ring-stress")
    var ringURL: URL { directory.url.appendingPathComponent("live.ring") }

    @Test("a tight push and drain on two threads never tears a record")
    func noTornRecords() async throws {
        let count: UInt64 = 400_000
        let producer = try RingBufferProducer(fileURL: ringURL, slotCount: 256)
        let consumer = try RingBufferConsumer(fileURL: ringURL)
        let finished = Thread.runDetached {
            for index in 0..<count {
                producer.push(RingProbe.record(index))
                if index % 64 == 63 { producer.notifyConsumer() }
            }
            producer.close()
        }
        var received: UInt64 = 0
        var torn = 0
        var outOfOrder = 0
        var last: UInt64?
        var batch: [PackedPacketMeta] = []
        while true {
            batch.removeAll(keepingCapacity: true)
            consumer.drain(into: &batch, max: 128)
            for record in batch {
                guard let index = RingProbe.index(of: record) else { torn += 1; continue }
                if let last, index <= last { outOfOrder += 1 }
                last = index
                received += 1
            }
            if batch.isEmpty {
                if consumer.sessionState == .closed, consumer.drain(into: &batch, max: 1) == 0 { break }
                _ = consumer.wait(timeout: .milliseconds(20))
            }
        }
        await finished.value
        #expect(torn == 0)
        #expect(outOfOrder == 0)
        #expect(received + consumer.droppedCount() == count)
        #expect(received > 0)
    }

    @Test("a consumer asleep in wait is woken by the producer's notify")
    func wakeup() async throws {
        let producer = try RingBufferProducer(fileURL: ringURL, slotCount: 64)
        let consumer = try RingBufferConsumer(fileURL: ringURL)
        let (outcome, waiter) = await Thread.runDetachedSaying { consumer.wait(timeout: .seconds(30)) }
        #expect(KernelThread.waitUntilBlocked(waiter, in: "futex"), "the consumer never slept in wait")
        producer.push(RingProbe.record(42))
        producer.notifyConsumer()
        #expect(await outcome.value == .recordsAvailable)
        #expect(consumer.drain(max: 8).map(\.timestamp) == [42])
    }

    @Test("with nothing pushed the wait times out, and waiting with records ready does not sleep")
    func waitWithoutWakeup() throws {
        let producer = try RingBufferProducer(fileURL: ringURL, slotCount: 64)
        let consumer = try RingBufferConsumer(fileURL: ringURL)
        #expect(consumer.wait(timeout: .milliseconds(30)) == .timedOut)
        producer.push(RingProbe.record(1))   // no notify: the records themselves are reason enough
        #expect(consumer.wait(timeout: .seconds(30)) == .recordsAvailable)
    }

    @Test("a new session wakes a consumer asleep on the old file")
    func sessionChangeWakes() async throws {
        let first = try RingBufferProducer(fileURL: ringURL, slotCount: 64)
        let consumer = try RingBufferConsumer(fileURL: ringURL)
        first.close()
        let (outcome, waiter) = await Thread.runDetachedSaying { consumer.wait(timeout: .seconds(30)) }
        #expect(KernelThread.waitUntilBlocked(waiter, in: "futex"), "the consumer never slept on the old file")
        let second = try RingBufferProducer(fileURL: ringURL, slotCount: 64)
        #expect(await outcome.value == .sessionChanged)
        second.push(RingProbe.record(7))
        #expect(consumer.drain(max: 8).map(\.timestamp) == [7])
        #expect(consumer.generation == second.generation)
    }

    @Test("records keep flowing, none lost or repeated, while sessions switch under a live consumer")
    func reattachUnderLoad() async throws {
        let perSession: UInt64 = 20_000
        let sessions: UInt64 = 4
        let url = ringURL
        let start = try RingBufferProducer(fileURL: url, slotCount: 1024)
        let consumer = try RingBufferConsumer(fileURL: url)
        let finished = Thread.runDetached {
            var producer: RingBufferProducer? = start
            for session in 0..<sessions {
                if producer == nil { producer = try? RingBufferProducer(fileURL: url, slotCount: 512) }
                for index in session * perSession..<(session + 1) * perSession {
                    while producer?.hasFreeSlot() == false { sched_yield() }
                    producer?.push(RingProbe.record(index))
                }
                producer?.notifyConsumer()
                producer?.close()
                producer = nil
            }
        }
        var received: [UInt64] = []
        received.reserveCapacity(Int(perSession * sessions))
        var batch: [PackedPacketMeta] = []
        while received.count < Int(perSession * sessions) {
            batch.removeAll(keepingCapacity: true)
            if consumer.drain(into: &batch, max: 256) == 0 { _ = consumer.wait(timeout: .milliseconds(20)) }
            received += batch.compactMap(RingProbe.index(of:))
        }
        await finished.value
        #expect(received == Array(0..<perSession * sessions))
        #expect(consumer.reattachCount == Int(sessions) - 1)
    }
}

extension Thread {
    /// Runs `work` on a thread of its own (not the cooperative pool, which a blocking wait
    /// would starve) and hands back its result.
    static func runDetached<T: Sendable>(_ work: @escaping @Sendable () -> T) -> Task<T, Never> {
        let box = ResultBox<T>()
        let thread = Thread {
            box.set(work())
        }
        thread.start()
        return Task { await box.value() }
    }

    /// `runDetached`, and the kernel id of the thread it runs on, for the test to watch it by
    /// (`KernelThread`) — known before `work` starts.
    static func runDetachedSaying<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> (Task<T, Never>, pid_t) {
        let thread = ResultBox<pid_t>()
        let outcome = runDetached { () -> T in
            thread.set(KernelThread.currentID)
            return work()
        }
        return (outcome, await thread.value())
    }
}

/// A result written once by a thread and awaited by a task.
final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: T?
    private var waiters: [CheckedContinuation<T, Never>] = []

    func set(_ value: T) {
        lock.lock()
        result = value
        let pending = waiters
        waiters = []
        lock.unlock()
        pending.forEach { $0.resume(returning: value) }
    }

    func value() async -> T {
        await withCheckedContinuation { continuation in
            lock.lock()
            if let result {
                lock.unlock()
                continuation.resume(returning: result)
            } else {
                waiters.append(continuation)
                lock.unlock()
            }
        }
    }
}
