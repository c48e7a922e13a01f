import App
import AppLinux
import Fixtures
import Foundation
import Shared
import Synchronization
import TestSupport
import Testing

/// The live reader against a real `RingBufferProducer` over a temporary file, woken by the ring's
/// real futex wakeup (or, where a test must decide when it wakes, by a hand-held one).
@Suite("live-feed reader over a real ring")
struct LiveFeedReaderTests {
    /// A wakeup the test fires itself; it keeps `onWake` after `stop()` to fire a late signal.
    final class HandWakeup: LiveFeedWakeup, @unchecked Sendable {
        private let lock = NSLock()
        private var handler: (@Sendable () -> Void)?
        private(set) var stops = 0
        func start(onWake: @escaping @Sendable () -> Void) { lock.withLock { handler = onWake } }
        func stop() { lock.withLock { stops += 1 } }
        func fire() { lock.withLock { handler }?() }
    }

    static let anchor = MonotonicAnchor(uptimeNanoseconds: 0, wallClockNanosecondsSince1970: Int64(Date().timeIntervalSince1970 * 1e9))

    static func reader(_ ring: URL, heartbeat: Duration? = nil, wakeup: any LiveFeedWakeup,
                       policy: LiveFeedPolicy = .default) -> LiveFeedReader {
        var policy = policy
        policy.idlePollInterval = heartbeat
        return LiveFeedReader(fileURL: ring, policy: policy, wakeup: wakeup, anchorNow: { anchor })
    }

    static func push(_ producer: RingBufferProducer, _ range: Range<UInt64>) {
        for index in range { producer.push(RingProbe.record(index)) }
    }

    @Test("with no ring it says why and keeps trying; it attaches when a tunnel makes one, and stop lets go")
    func attachAndDetach() async throws {
        let work = TemporaryDirectory("live-attach")
        let ring = work.url.appendingPathComponent("live.ring")
        let reader = Self.reader(ring, heartbeat: .milliseconds(50), wakeup: HandWakeup())
        await reader.start()
        var snapshot = await reader.snapshot
        #expect(!snapshot.isAttached)
        #expect(snapshot.lastAttachError == .openFailed(path: ring.path, errno: ENOENT))
        let producer = try RingBufferProducer(fileURL: ring, slotCount: 1024)
        #expect(await eventually(within: .seconds(20)) { await reader.snapshot.isAttached })
        snapshot = await reader.snapshot
        #expect(snapshot.lastAttachError == nil && snapshot.ringState == .live && snapshot.generation == producer.generation)
        await reader.stop()
        #expect(await reader.snapshot.isAttached == false)
        producer.close()
    }

    @Test("the ring's own wakeup drains what the producer notifies, and nothing is drained before it notifies")
    func wakeupDrives() async throws {
        let work = TemporaryDirectory("live-wake")
        let ring = work.url.appendingPathComponent("live.ring")
        let producer = try RingBufferProducer(fileURL: ring, slotCount: 1024)
        let reader = Self.reader(ring, wakeup: RingFutexWakeup(fileURL: ring))
        await reader.start()
        try await Task.sleep(for: .milliseconds(300))   // the wakeup has found the ring (its first look wakes once)
        Self.push(producer, 0..<10)
        try await Task.sleep(for: .milliseconds(400))
        #expect(await reader.snapshot.packetCount == 0, "no heartbeat and no notify: nothing should wake the reader")
        producer.notifyConsumer()
        #expect(await eventually(within: .seconds(20)) { await reader.snapshot.packetCount == 10 })
        Self.push(producer, 10..<25)
        producer.notifyConsumer()
        #expect(await eventually(within: .seconds(20)) { await reader.snapshot.packetCount == 25 })
        await reader.stop()
        producer.close()
    }

    @Test("after the futex wakeup's stop returns, a notify calls nobody")
    func futexWakeupSilentAfterStop() async throws {
        let work = TemporaryDirectory("live-wake-stop")
        let ring = work.url.appendingPathComponent("live.ring")
        let producer = try RingBufferProducer(fileURL: ring, slotCount: 64)
        let wakeup = RingFutexWakeup(fileURL: ring, slice: .milliseconds(20))
        let counter = Counter()
        wakeup.start { counter.increment() }
        #expect(await eventually(within: .seconds(20)) { counter.value >= 1 }, "attached: the first look says \"session\"")
        let before = counter.value
        producer.notifyConsumer()
        #expect(await eventually(within: .seconds(20)) { counter.value > before })
        wakeup.stop()
        let stopped = counter.value
        for _ in 0..<5 {
            producer.notifyConsumer()
            try await Task.sleep(for: .milliseconds(30))
        }
        #expect(counter.value == stopped)
        producer.close()
    }

    @Test("a producer that notifies without pause wakes the reader about once per settle, not once per notify")
    func futexWakeupSettles() async throws {
        let work = TemporaryDirectory("live-wake-settle")
        let ring = work.url.appendingPathComponent("live.ring")
        let producer = try RingBufferProducer(fileURL: ring, slotCount: 64)
        let wakeup = RingFutexWakeup(fileURL: ring, slice: .milliseconds(20), settle: .milliseconds(50))
        let counter = Counter()
        wakeup.start { counter.increment() }
        #expect(await eventually(within: .seconds(20)) { counter.value >= 1 }, "attached: the first look says \"session\"")
        let before = counter.value
        let notifies = Atomic<Int>(0)
        let started = Date()
        let notifier = Thread {
            while Date().timeIntervalSince(started) < 1 {
                producer.notifyConsumer()
                notifies.add(1, ordering: .relaxed)
                usleep(100)
            }
        }
        notifier.start()
        #expect(await eventually(within: .seconds(20)) { notifier.isFinished })
        wakeup.stop()
        let woken = counter.value - before
        let sent = notifies.load(ordering: .relaxed)
        // 1 s of notifies at a 50 ms settle: about 20 wakeups, each after a settle; never hundreds.
        #expect(sent > 500, "the notifier sent only \(sent)")
        #expect(woken >= 5 && woken <= 1_000 / 50 + 4, "\(sent) notifies woke the reader \(woken) times")
        producer.close()
    }

    @Test("a drain is one bounded burst: at most recordsPerDrain × maxDrainsPerBurst records, the rest left for the next")
    func burstCap() async throws {
        let work = TemporaryDirectory("live-burst")
        let ring = work.url.appendingPathComponent("live.ring")
        let producer = try RingBufferProducer(fileURL: ring, slotCount: 16_384)
        let reader = Self.reader(ring, wakeup: HandWakeup())
        await reader.start()
        Self.push(producer, 0..<10_000)
        #expect(await reader.drain() == 4096)
        #expect(await reader.drain() == 4096)
        #expect(await reader.drain() == 1808)
        #expect(await reader.drain() == 0)
        #expect(await reader.snapshot.packetCount == 10_000)
        await reader.stop()
        producer.close()
    }

    @Test("the heartbeat drains without any wakeup")
    func heartbeat() async throws {
        let work = TemporaryDirectory("live-beat")
        let ring = work.url.appendingPathComponent("live.ring")
        let producer = try RingBufferProducer(fileURL: ring, slotCount: 1024)
        let reader = Self.reader(ring, heartbeat: .milliseconds(100), wakeup: HandWakeup())
        await reader.start()
        Self.push(producer, 0..<7)
        #expect(await eventually(within: .seconds(20)) { await reader.snapshot.packetCount == 7 })
        await reader.stop()
        producer.close()
    }

    @Test("recent packets are capped at 500, the newest, in order, numbered by the reader")
    func cappedRecents() async throws {
        let work = TemporaryDirectory("live-recent")
        let ring = work.url.appendingPathComponent("live.ring")
        let producer = try RingBufferProducer(fileURL: ring, slotCount: 2048)
        let reader = Self.reader(ring, wakeup: HandWakeup())
        await reader.start()
        Self.push(producer, 0..<1200)
        await reader.drain()
        let recent = await reader.snapshot.recent
        #expect(recent.map(\.id) == Array(700..<1200))
        #expect(recent.map(\.flowKey) == (700..<1200).map { try! PacketMeta(packed: RingProbe.record($0)).flowKey })
        await reader.stop()
        producer.close()
    }

    @Test("the records the producer dropped on a full ring are shown")
    func producerDrops() async throws {
        let work = TemporaryDirectory("live-drops")
        let ring = work.url.appendingPathComponent("live.ring")
        let producer = try RingBufferProducer(fileURL: ring, slotCount: 64)
        let reader = Self.reader(ring, wakeup: HandWakeup())
        await reader.start()
        Self.push(producer, 0..<100)
        await reader.drain()
        let snapshot = await reader.snapshot
        #expect(snapshot.droppedRecords == 36 && snapshot.packetCount == 64)
        await reader.stop()
        producer.close()
    }

    @Test("a new tunnel session empties the session's counters and follows the new ring; a closed earlier session's leftovers are not counted")
    func sessionReset() async throws {
        let work = TemporaryDirectory("live-session")
        let ring = work.url.appendingPathComponent("live.ring")
        let first = try RingBufferProducer(fileURL: ring, slotCount: 1024)
        Self.push(first, 0..<10)
        first.close()
        let reader = Self.reader(ring, heartbeat: .milliseconds(50), wakeup: RingFutexWakeup(fileURL: ring))
        await reader.start()
        var snapshot = await reader.snapshot
        #expect(snapshot.ringState == .closed && snapshot.packetCount == 0, "an ended session's unread records are not this session's")
        let second = try RingBufferProducer(fileURL: ring, slotCount: 1024)
        Self.push(second, 100..<105)
        second.notifyConsumer()
        let generation = second.generation
        #expect(await eventually(within: .seconds(20)) {
            let current = await reader.snapshot
            return current.generation == generation && current.packetCount == 5
        })
        snapshot = await reader.snapshot
        #expect(snapshot.ringState == .live && snapshot.recent.count == 5)
        await reader.stop()
        second.close()
    }

    @Test("a signal that arrives after stop does nothing")
    func lateSignal() async throws {
        let work = TemporaryDirectory("live-late")
        let ring = work.url.appendingPathComponent("live.ring")
        let producer = try RingBufferProducer(fileURL: ring, slotCount: 1024)
        let wakeup = HandWakeup()
        let reader = Self.reader(ring, wakeup: wakeup)
        await reader.start()
        Self.push(producer, 0..<3)
        wakeup.fire()
        #expect(await eventually(within: .seconds(20)) { await reader.snapshot.packetCount == 3 })
        await reader.stop()
        #expect(wakeup.stops == 1)
        Self.push(producer, 3..<9)
        wakeup.fire()
        try await Task.sleep(for: .milliseconds(200))
        let snapshot = await reader.snapshot
        #expect(snapshot.packetCount == 3 && !snapshot.isAttached)
        // The records stay in the ring for the next reader.
        let consumer = try RingBufferConsumer(fileURL: ring)
        #expect(consumer.drain(max: 100).count == 6)
        producer.close()
    }

    @Test("the stream gives the current snapshot at once and a new one after each drain")
    func stream() async throws {
        let work = TemporaryDirectory("live-stream")
        let ring = work.url.appendingPathComponent("live.ring")
        let producer = try RingBufferProducer(fileURL: ring, slotCount: 1024)
        let reader = Self.reader(ring, wakeup: RingFutexWakeup(fileURL: ring))
        await reader.start()
        var iterator = await reader.snapshots().makeAsyncIterator()
        #expect(await iterator.next()?.packetCount == 0)
        Self.push(producer, 0..<4)
        producer.notifyConsumer()
        var seen: UInt64 = 0
        while seen < 4, let next = await iterator.next() { seen = next.packetCount }
        #expect(seen == 4)
        await reader.stop()
        producer.close()
    }

    @Test("5 000 records through a small ring, producer and reader at once, arrive without loss or duplication")
    func fiveThousand() async throws {
        let work = TemporaryDirectory("live-5000")
        let ring = work.url.appendingPathComponent("live.ring")
        let producer = try RingBufferProducer(fileURL: ring, slotCount: 256)
        let reader = Self.reader(ring, heartbeat: .milliseconds(200), wakeup: RingFutexWakeup(fileURL: ring))
        await reader.start()
        let thread = Thread {
            for index in 0..<UInt64(5000) {
                while !producer.hasFreeSlot() { usleep(100) }
                producer.push(RingProbe.record(index))
                if index % 64 == 63 { producer.notifyConsumer() }
            }
            producer.notifyConsumer()
        }
        thread.start()
        #expect(await eventually(within: .seconds(20)) { await reader.snapshot.packetCount == 5000 })
        let snapshot = await reader.snapshot
        let metas = (0..<UInt64(5000)).map { try! PacketMeta(packed: RingProbe.record($0)) }
        let expectedIn = metas.filter { $0.direction == .inbound }.reduce(UInt64(0)) { $0 + UInt64($1.length) }
        let expectedOut = metas.filter { $0.direction == .outbound }.reduce(UInt64(0)) { $0 + UInt64($1.length) }
        #expect(snapshot.bytesIn == expectedIn && snapshot.bytesOut == expectedOut)
        #expect(snapshot.droppedRecords == 0 && snapshot.unreadableRecords == 0)
        #expect(snapshot.recent.map(\.date) == (4500..<5000).map { Self.anchor.date(forUptime: $0) })
        await reader.stop()
        producer.close()
    }
}

private final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    func increment() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

extension LiveFeedReaderTests {
    @Test("a backlog larger than a burst is drained burst after burst after one wakeup, not at the heartbeat's pace")
    func backlogAfterOneWakeup() async throws {
        let work = TemporaryDirectory("live-backlog")
        let ring = work.url.appendingPathComponent("live.ring")
        let producer = try RingBufferProducer(fileURL: ring, slotCount: 65_536)
        let wakeup = HandWakeup()
        let reader = Self.reader(ring, wakeup: wakeup)
        await reader.start()
        Self.push(producer, 0..<60_000)
        wakeup.fire()
        let drained = await eventually(within: .seconds(20)) { await reader.snapshot.packetCount == 60_000 }
        let count = await reader.snapshot.packetCount
        #expect(drained, "one wakeup, no heartbeat: \(count) of 60 000 drained")
        await reader.stop()
        producer.close()
    }
}
