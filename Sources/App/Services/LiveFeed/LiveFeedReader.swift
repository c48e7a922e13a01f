import Foundation
import Shared
import Synchronization

/// The app's end of the live feed: the single consumer of the tunnel's ring (actor isolation is
/// the single consuming context the ring's contract asks for), turning records into snapshots a
/// dashboard draws. Every bound is the policy's: a burst copies at most
/// `recordsPerDrain × maxDrainsPerBurst` records, recents are capped, the window is fixed.
///
/// Decisions the seed leaves open, ours:
/// - A wakeup schedules at most one drain at a time (a flag, not a queue of tasks): a producer
///   notifying per batch cannot pile up work behind a slow reader. A burst that hits its ceiling
///   queues the next burst itself, as a separate job.
/// - A ring left closed by an earlier session is attached (so the screen can say so) but its
///   unread records are discarded, not counted as this session's.
/// - A new session (a new ring file) empties the session — counters, window, recents — and takes
///   a fresh anchor; a pass that straddles the switch is credited to the new session.
/// - With no ring yet, the heartbeat retries attaching; `lastAttachError` says why it failed.
/// - The history is asked, once a heartbeat and a few at a time, which rows and names it holds
///   for the connections a dashboard shows (`LiveFeedNameLookup`), so every face of the feed —
///   the terminal, `live --json`, the web Dashboard — names them and links them the same way.
package actor LiveFeedReader {
    package let fileURL: URL
    package let policy: LiveFeedPolicy
    private let wakeup: any LiveFeedWakeup
    private let localAddresses: Set<IPAddress>
    private let anchorNow: @Sendable () -> MonotonicAnchor
    private let clock: @Sendable () -> Date
    private let nameLookup: LiveFeedNameLookup?
    private var names = LiveDashboardNames()
    private var namingInFlight = false

    private var consumer: RingBufferConsumer?
    private var sessionGeneration: UInt64?
    private var scratch: [PackedPacketMeta] = []
    private var sequence: UInt64 = 0
    private var anchor: MonotonicAnchor
    private var window: ThroughputWindow
    private var talkers: TalkerWindow
    private var connections: ConnectionTally
    private var recentPackets: RecentPackets
    private var bytesIn: UInt64 = 0
    private var bytesOut: UInt64 = 0
    private var packetCount: UInt64 = 0
    private var unreadableRecords: UInt64 = 0
    private var droppedRecords: UInt64 = 0
    private var attachError: IPCError?
    private var running = false
    private var heartbeat: Task<Void, Never>?
    private var continuations: [UInt64: AsyncStream<LiveFeedSnapshot>.Continuation] = [:]
    private var nextContinuation: UInt64 = 0
    private let wakePending = WakeFlag()

    /// The tunnel's ring in `dataDirectory`, its connections named from the history beside it.
    package init(dataDirectory: URL, policy: LiveFeedPolicy = .default, wakeup: any LiveFeedWakeup,
                localAddresses: Set<IPAddress> = TunnelAddressing.localAddresses) {
        let path = dataDirectory.path
        let history = LiveFeedNameLookup(localAddresses: localAddresses) { () throws -> FlowStore in
            try HistoryAccess.openStore(dataDirectory: path)
        }
        self.init(fileURL: DataDirectoryLayout.ring(in: dataDirectory), policy: policy, wakeup: wakeup,
                  localAddresses: localAddresses, nameLookup: history)
    }

    package init(fileURL: URL, policy: LiveFeedPolicy = .default, wakeup: any LiveFeedWakeup,
                localAddresses: Set<IPAddress> = TunnelAddressing.localAddresses,
                anchorNow: @escaping @Sendable () -> MonotonicAnchor = { MonotonicAnchor.now() },
                clock: @escaping @Sendable () -> Date = { Date() }, nameLookup: LiveFeedNameLookup? = nil) {
        self.fileURL = fileURL
        self.nameLookup = nameLookup
        self.policy = policy
        self.wakeup = wakeup
        self.localAddresses = localAddresses
        self.anchorNow = anchorNow
        self.clock = clock
        anchor = anchorNow()
        window = ThroughputWindow(bucketDuration: policy.bucketDuration, windowDuration: policy.windowDuration)
        talkers = TalkerWindow(bucketDuration: policy.bucketDuration, windowDuration: policy.windowDuration,
                               hostsPerBucket: policy.talkersPerBucket)
        connections = ConnectionTally(cap: policy.connectionCountCap)
        recentPackets = RecentPackets(capacity: policy.recentPacketCapacity)
        scratch.reserveCapacity(policy.recordsPerDrain)
    }

    package var isRunning: Bool { running }
    package var lastAttachError: IPCError? { attachError }
    /// How many times the consumer moved to a newer session's file.
    package var reattachCount: Int { consumer?.reattachCount ?? 0 }

    /// Re-anchors, empties the session, attaches, drains, and starts the wakeup and the heartbeat.
    package func start() {
        guard !running else { return }
        running = true
        anchor = anchorNow()
        resetSession()
        attach()
        drain()
        let flag = wakePending
        wakeup.start { [weak self] in
            guard let self, flag.claim() else { return }
            Task { await self.woke() }
        }
        if let interval = policy.idlePollInterval {
            heartbeat = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    guard !Task.isCancelled, let self else { return }
                    await self.beat()
                }
            }
        }
    }

    /// Lets go of the wakeup and the heartbeat and closes the ring. A wakeup already on its way
    /// is ignored.
    package func stop() {
        guard running else { return }
        running = false
        wakeup.stop()
        heartbeat?.cancel()
        heartbeat = nil
        consumer?.close()
        consumer = nil
        sessionGeneration = nil
        publish()
    }

    /// Moves to the file the path names now when it is a newer session's (the tunnel makes a new
    /// ring per session), or attaches when nothing is open.
    package func reattach() {
        guard let consumer else {
            attach()
            return
        }
        do {
            if try consumer.reattach() { beginSession(generation: consumer.generation) }
            attachError = nil
        } catch {
            attachError = error
        }
    }

    /// One bounded burst: at most `maxDrainsPerBurst` passes of `recordsPerDrain`. Returns the
    /// records taken; what is left waits for the next wakeup or heartbeat.
    @discardableResult
    package func drain() -> Int {
        guard let consumer else { return 0 }
        var taken = 0
        for _ in 0..<policy.maxDrainsPerBurst {
            scratch.removeAll(keepingCapacity: true)
            let count = consumer.drain(into: &scratch, max: policy.recordsPerDrain)
            if consumer.generation != sessionGeneration { beginSession(generation: consumer.generation) }
            for record in scratch { take(record) }
            taken += count
            if count < policy.recordsPerDrain { break }
        }
        droppedRecords = consumer.droppedCount()
        if taken > 0 { publish() }
        return taken
    }

    package var snapshot: LiveFeedSnapshot {
        let now = clock()
        return LiveFeedSnapshot(
            recent: recentPackets.packets, throughput: window.samples(asOf: now), droppedRecords: droppedRecords,
            bytesIn: bytesIn, bytesOut: bytesOut, packetCount: packetCount, lateRecords: window.lateRecords,
            isAttached: consumer != nil, lastAttachError: attachError, ringState: consumer?.sessionState,
            generation: consumer?.generation, topTalkers: talkers.top(asOf: now, limit: Self.talkerLimit),
            connectionsSeen: connections.count, connectionsReachedCap: connections.reachedCap,
            unreadableRecords: unreadableRecords, takenAt: now, names: names)
    }

    /// The current snapshot at once, then one after every drain that took records and every
    /// heartbeat. A slow consumer gets the newest only.
    package func snapshots() -> AsyncStream<LiveFeedSnapshot> {
        let (stream, continuation) = AsyncStream.makeStream(of: LiveFeedSnapshot.self,
                                                             bufferingPolicy: .bufferingNewest(1))
        let key = nextContinuation
        nextContinuation += 1
        continuations[key] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.forget(key) }
        }
        continuation.yield(snapshot)
        return stream
    }

    /// The hosts a snapshot lists: enough for any terminal, a fixed cost per snapshot.
    static let talkerLimit = 10
    /// The recent connections the history is asked about: as many as a tall terminal lists (the
    /// questions per heartbeat are bounded by `LiveDashboardNames.lookupsPerRound` whatever this is).
    static let recentNamedLimit = 40

    private func forget(_ key: UInt64) { continuations[key] = nil }

    private func woke() {
        wakePending.release()
        guard running else { return }
        if consumer == nil { attach() }
        continueIfFull(drain())
    }

    private func beat() {
        guard running else { return }
        if consumer == nil { attach() } else if consumer?.sessionState == .closed { reattach() }
        let taken = drain()
        if taken == 0 { publish() }
        continueIfFull(taken)
        askHistory()
    }

    /// One round of questions to the history at a time, off the actor's back: its answers arrive
    /// as a job of their own, and a round for a session that ended meanwhile is dropped.
    private func askHistory() {
        guard let nameLookup, !namingInFlight else { return }
        namingInFlight = true
        let current = snapshot
        let wanted = current.flowsToName(talkers: Self.talkerLimit, recent: Self.recentNamedLimit)
        let session = current.generation
        Task { [weak self] in
            let named = await nameLookup.refresh(wanted: wanted, now: current.takenAt, session: session)
            await self?.historyAnswered(named, session: session)
        }
    }

    private func historyAnswered(_ named: LiveDashboardNames, session: UInt64?) {
        namingInFlight = false
        guard session == sessionGeneration, named != names else { return }
        names = named
        publish()
    }

    /// A burst that hit its ceiling left records behind: another burst is queued as a job of its
    /// own (so snapshots and stop get in between), rather than leaving a backlog to the heartbeat's
    /// pace — a producer that stops notifying after a flood must not take a minute to catch up.
    private func continueIfFull(_ taken: Int) {
        guard taken >= policy.recordsPerDrain * policy.maxDrainsPerBurst, wakePending.claim() else { return }
        Task { self.woke() }
    }

    private func attach() {
        do {
            let opened = try RingBufferConsumer(fileURL: fileURL)
            consumer = opened
            attachError = nil
            beginSession(generation: opened.generation)
            if opened.sessionState == .closed { discardEarlierSession(opened) }
        } catch {
            attachError = error
        }
        publish()
    }

    private func discardEarlierSession(_ consumer: RingBufferConsumer) {
        while true {
            scratch.removeAll(keepingCapacity: true)
            if consumer.drain(into: &scratch, max: policy.recordsPerDrain) == 0 { break }
        }
        droppedRecords = consumer.droppedCount()
    }

    private func beginSession(generation: UInt64) {
        if sessionGeneration != nil { anchor = anchorNow() }
        sessionGeneration = generation
        resetSession()
    }

    private func resetSession() {
        names.forgetAll()
        window.reset()
        talkers.reset()
        connections.reset()
        recentPackets.removeAll()
        (bytesIn, bytesOut, packetCount, droppedRecords) = (0, 0, 0, 0)
    }

    private func take(_ record: PackedPacketMeta) {
        guard let packet = try? LivePacket(record, sequence: sequence, anchor: anchor, localAddresses: localAddresses) else {
            unreadableRecords += 1
            return
        }
        sequence &+= 1
        packetCount &+= 1
        switch packet.direction {
        case .inbound: bytesIn &+= UInt64(packet.length)
        case .outbound: bytesOut &+= UInt64(packet.length)
        }
        window.add(date: packet.date, direction: packet.direction, length: packet.length)
        if let endpoints = packet.endpoints {
            talkers.add(date: packet.date, remote: endpoints.remote.address, flow: packet.flowKey,
                        direction: packet.direction, length: packet.length)
        }
        connections.note(packet.flowKey)
        recentPackets.append(packet)
    }

    private func publish() {
        guard !continuations.isEmpty else { return }
        let current = snapshot
        for continuation in continuations.values { continuation.yield(current) }
    }
}

/// At most one drain scheduled by wakeups at a time.
private final class WakeFlag: Sendable {
    private let pending = Atomic<Bool>(false)
    /// True for the caller who should schedule the drain.
    func claim() -> Bool { !pending.exchange(true, ordering: .acquiringAndReleasing) }
    func release() { pending.store(false, ordering: .releasing) }
}
