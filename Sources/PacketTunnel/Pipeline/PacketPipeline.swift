import Shared

/// The hot path without the device: every datagram the tunnel reads, and every reply the relay
/// writes back, is parsed, given its direction, counted into its flow, captured, published to the
/// live feed and gathered into the next history batch. It observes and decides; it never touches
/// the network.
///
/// The spec makes this an actor; here it keeps the spec's contract, not its isolation. The
/// tunnel's one event-loop thread calls it synchronously for each packet (STYLE practice 10): an
/// actor hop per packet — a suspension, an executor switch and a copy of the datagram — is exactly
/// the cost a fast userspace relay avoids on its per-packet path. So it is a plain class owned by
/// that thread, and it owns the `FlowTable`; other threads reach it through the loop's queue. Its
/// sinks are synchronous too, and none of them waits: the ring drops when full, the capture turns
/// itself off on failure, the store queue refuses when full (spec, "Fallos acotados").
///
/// Time is an input (STYLE practice 7): each call takes `now`, monotonic nanoseconds on the
/// anchor's clock. The owner's timer calls `tick(now:)`.
package final class PacketPipeline {
    package struct Config: Sendable {
        /// Each packet is published, captured and batched with its flow's record (the tunnel).
        /// Off, only flows are recorded — when they end and at `flushActiveFlows` — which is all
        /// an offline reading needs.
        var recordsEachPacket = true
        package var captureEnabled: Bool
        /// Packets that force a store batch out.
        package var batchSize: Int
        /// Nanoseconds after which a batch goes out even if not full.
        var flushInterval: UInt64
        /// The store's anchor: dates the capture records.
        package var anchor: MonotonicAnchor
        /// What of each inspected flow's decrypted content is kept (`PlaintextBudget`).
        package var plaintextLimits = PlaintextBudget.Limits.standard

        package init(captureEnabled: Bool = true, batchSize: Int = 512,
                     flushInterval: UInt64 = 250_000_000, anchor: MonotonicAnchor) {
            self.captureEnabled = captureEnabled
            self.batchSize = batchSize
            self.flushInterval = flushInterval
            self.anchor = anchor
        }
    }

    package internal(set) var config: Config
    package internal(set) var flowTable: FlowTable
    /// Which way each packet goes: the tunnel's addresses live, the first sender offline.
    let directionRule: any PacketDirectionRule
    let liveFeed: any LiveFeedSink
    let capture: (any CaptureSink)?
    let store: any FlowPersisting

    /// Told, on the loop's thread, when capture stops on a failure: it must hand the news on
    /// without waiting (the tunnel's `run` queues a line for standard error).
    package var recordingStopped: (@Sendable (RecordingStop) -> Void)?

    /// Where decrypted chunks are kept; nil while the session keeps none (the switch is off), and
    /// then `stats.plaintext` is absent.
    package var plaintextSink: (any PlaintextSink)? {
        didSet { counters.plaintext = plaintextSink == nil ? nil : (counters.plaintext ?? .zero) }
    }
    /// Told, on the loop's thread, each time the decrypted-content file being written changes
    /// (to none included): the sweep runs then.
    package var plaintextFileChanged: (@Sendable (UInt32?) -> Void)?
    /// Told, on the loop's thread, of each TCP or UDP flow as it opens — its local socket's side
    /// and its peer's, and the lifetime's first instant — so the program behind it can be asked
    /// about off the packet path; the answer comes back through `observeProgram`. It must not wait.
    package var flowOpened: ((_ key: FlowKey, _ local: IPEndpoint, _ remote: IPEndpoint, _ firstSeen: UInt64) -> Void)?
    /// Each inspected flow's conversation and budget, and the file last reported.
    var plaintextConversations: [FlowKey: PlaintextConversation] = [:]
    var plaintextFileSequence: UInt32?

    /// The pipeline's own counters; `stats` adds the store queue's.
    var counters = PipelineStats()
    /// Batches and packets `store` refused, and its failure count when it last refused, to tell
    /// which of the two last errors is the later one.
    var refusedBatches: UInt64 = 0
    var refusedPackets: UInt64 = 0
    var storeFailuresAtLastRefusal: UInt64 = 0

    /// The batch being gathered, and where each key's latest record sits in `batch.flows`.
    var batch = FlowStoreBatch()
    var batchSlot: [FlowKey: Int] = [:]
    var lastFlush: UInt64?
    var lastNow: UInt64 = 0
    /// Flows that ended since the last tick.
    var endedKeys: [FlowKey] = []
    /// Something was published since the reader was last woken.
    var unnotified = false
    /// What DNS replies said about addresses, for naming flows as they begin.
    var resolvedNames = ResolvedNameMap(limits: .tunnel)
    /// QUIC flows whose ClientHello or ServerHello is still being read from their Initials.
    var quicReaders: [FlowKey: QUICHandshakeReader] = [:]

    package init(flowTable: FlowTable = FlowTable(), direction: any PacketDirectionRule = TunnelAddressDirection(),
                 liveFeed: any LiveFeedSink, capture: (any CaptureSink)?, store: any FlowPersisting, config: Config) {
        precondition(config.batchSize > 0, "a store batch holds at least one packet")
        self.flowTable = flowTable
        directionRule = direction
        self.liveFeed = liveFeed
        self.capture = capture
        self.store = store
        self.config = config
        batch.packets.reserveCapacity(config.batchSize)
    }

    /// Counters for the diagnostics: this pipeline's, plus what the store queue made of its batches.
    package var stats: PipelineStats {
        let outcomes = store.outcomes
        var stats = counters
        stats.storeBatchesWritten = outcomes.batchesWritten
        stats.storeBatchesFailed = outcomes.batchesFailed + refusedBatches
        stats.packetsLostToStoreFailures = outcomes.packetsLost + refusedPackets
        if let error = outcomes.lastError, outcomes.batchesFailed > storeFailuresAtLastRefusal || refusedBatches == 0 {
            stats.lastStoreError = error
        }
        if outcomes.diskFull { stats.diskFull = true }
        return stats
    }

    /// One datagram read from the device (or seen on a watched interface). Passed through with its
    /// parse, or dropped for a counted reason. `originalLength`: its length on the wire when it was
    /// cut shorter.
    @discardableResult
    package func handle(packet: UnsafeRawBufferPointer, originalLength: Int? = nil, now: UInt64) -> PacketDisposition {
        counters.packetsHandled &+= 1
        counters.bytesHandled &+= UInt64(packet.count)
        return record(packet, originalLength: originalLength, now: now, reinjected: false)
    }

    /// The flow a recorded packet was counted into, and the packet's direction in it.
    package struct RecordedFlow {
        package let key: FlowKey
        package let direction: Direction
        package let counted: FlowTable.Counted
    }

    /// A datagram the relay already wrote back to the device, recorded like one read from it (its
    /// direction comes out inbound): without it half of every conversation would be invisible.
    @discardableResult
    package func record(reinjected packet: UnsafeRawBufferPointer, now: UInt64) -> PacketDisposition {
        record(packet, now: now, reinjected: true)
    }

    /// Turns capture on or off. On re-arms a capture a failure turned off.
    package func setCaptureEnabled(_ enabled: Bool) {
        config.captureEnabled = enabled
        if enabled { counters.captureDisabledByFailure = false }
    }

    /// The timer: expires idle flows (and closing ones whose linger is over) into the batch, sends
    /// the batch when the interval has passed, and returns the key of every flow that ended since
    /// the last tick — closed, expired or evicted — and is not live again, so the owner closes
    /// their relay connections.
    package func tick(now: UInt64) -> [FlowKey] {
        lastNow = max(lastNow, now)
        let expired = flowTable.expireIdle(now: now)
        counters.flowsExpired &+= UInt64(expired.count)
        for record in expired { end(record) }
        endDrained()                                // closing flows whose linger is over
        if intervalPassed(now) { flush(now: now) }
        defer { endedKeys = [] }
        // A 5-tuple that ended and was opened again since (a port reused by a new connection) is
        // live again: its new connection must not be closed.
        return endedKeys.filter { flowTable.record(for: $0) == nil }
    }

    /// Gives back the room a burst of flows left in the flow table and the pipeline's own tables
    /// (`UnusedCapacity`); the live loop calls it between ticks (never an offline reading, which
    /// keeps flow slots between packets).
    package func releaseUnusedCapacity() {
        flowTable.releaseUnusedCapacity()
        batchSlot.releaseUnusedCapacity()
        quicReaders.releaseUnusedCapacity()
        plaintextConversations.releaseUnusedCapacity()
    }

    /// Sends the batch being gathered, after writing out the capture it points into, and wakes the
    /// live feed's reader.
    package func flush(now: UInt64) {
        lastNow = max(lastNow, now)
        lastFlush = now
        if !batch.isEmpty {
            writeOutCapture { capture throws(PcapError) in try capture.writeOut() }
            if !batch.plaintext.isEmpty { writeOutPlaintext { sink throws(PlaintextWriteError) in try sink.writeOut() } }
            if !store.persist(batch) {
                refusedBatches &+= 1
                refusedPackets &+= UInt64(batch.packets.count)
                storeFailuresAtLastRefusal = store.outcomes.batchesFailed
                counters.lastStoreError = "the history writer fell behind; a batch of \(batch.packets.count) packets was dropped"
            }
            batch = FlowStoreBatch()
            batch.packets.reserveCapacity(config.batchSize)
            batchSlot.removeAll(keepingCapacity: true)
        }
        wakeLiveFeed()
    }

    /// Wakes the live feed's reader if anything was published since; the loop calls it after each
    /// batch it read from the device, so the reader wakes once per batch, not per packet.
    package func wakeLiveFeed() {
        guard unnotified else { return }
        unnotified = false
        liveFeed.notifyConsumer()
    }

    /// Ends every live flow, its record into the batch, and sends the batch: the end of an offline
    /// reading. The table is empty afterwards.
    func flushActiveFlows() {
        if config.recordsEachPacket || !plaintextConversations.isEmpty {
            for record in flowTable.removeAll() {
                place(record)
                if !plaintextConversations.isEmpty { releasePlaintext(of: record) }
            }
        } else {
            // What `place` does for a pipeline recording flows only, with each record moved into
            // the batch rather than copied out of a list first (the copies were ~2 % of `analyze`).
            flowTable.removeAll(into: &batch.flows)
        }
        flush(now: lastNow)
    }

    /// Stopping: sends what is gathered, syncs the capture and waits until the store queue has
    /// written (or lost) every batch. The owner closes the sinks afterwards. Runs on the caller's
    /// executor: the pipeline never leaves its owner.
    package nonisolated(nonsending) func shutdown() async {
        writeClosingPlaintextGaps()
        flush(now: lastNow)
        writeOutCapture { capture throws(PcapError) in try capture.flush() }
        writeOutPlaintext { sink throws(PlaintextWriteError) in try sink.flush() }
        await store.drain()
    }
}
