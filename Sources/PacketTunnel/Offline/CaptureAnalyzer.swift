import Foundation
import Shared

/// A capture made anywhere, read through the tunnel's own pipeline: the same parse, flow table,
/// DNS and QUIC naming, and — in place of the relay's streams — each TCP direction reassembled
/// from the segments for the same scanners. Directions come from who spoke first.
///
/// Pure: it is handed datagrams with their capture time and keeps every flow record the pipeline
/// writes. The shell reads the file and, when asked, writes `takeBatches()` into a store.
package final class CaptureAnalyzer {
    /// A flow as the capture ended it: its last record, and which side began it.
    package struct Conversation: Sendable {
        package var record: FlowRecord
        package var client: IPEndpoint?
    }

    let pipeline: PacketPipeline
    private let collected = CollectedBatches()
    /// Each TCP flow's streams until its scanners settle; then only that it settled, so its
    /// later segments are not reassembled.
    private var streams: [FlowKey: StreamState] = [:]

    private enum StreamState {
        case scanning(TCPStreams)
        case settled
    }
    private var lastTick: UInt64 = 0
    package private(set) var unreadable = 0

    /// Both directions of one TCP flow, until the scanners settle.
    private struct TCPStreams {
        var scanners = TCPFlowScanners()
        var fromClient = TCPStreamReassembler()
        var fromServer = TCPStreamReassembler()
    }

    package init() {
        // Capture time is the clock: an anchor at the epoch makes "uptime" wall-clock nanoseconds.
        var config = PacketPipeline.Config(captureEnabled: false, batchSize: 4096, flushInterval: .max,
                                           anchor: MonotonicAnchor(uptimeNanoseconds: 0, wallClockNanosecondsSince1970: 0))
        config.directionRule = .firstSender
        config.recordsEachPacket = false
        pipeline = PacketPipeline(liveFeed: DiscardedLiveFeed(), capture: nil, store: collected, config: config)
    }

    /// One IP datagram of the capture (its first bytes, when the capture cut it at `originalLength`),
    /// stamped with its capture time.
    package func read(datagram: UnsafeRawBufferPointer, originalLength: Int, nanosecondsSince1970: Int64) {
        let now = UInt64(max(0, nanosecondsSince1970))
        let disposition = pipeline.handle(captured: datagram, originalLength: originalLength, now: now)
        guard case .passthrough(let parsed) = disposition else {
            unreadable += 1
            return
        }
        if let tcp = parsed.tcp { scan(tcp, parsed, datagram) }
        if now >= lastTick &+ 1_000_000_000 {
            lastTick = now
            for key in pipeline.tick(now: now) { streams[key] = nil }
        }
    }

    /// The end of the capture: every flow still open is reported as it stands.
    package func conversations() -> [Conversation] {
        pipeline.flushActiveFlows()
        let conversations = collected.order.compactMap { key in
            collected.record(for: key).map { Conversation(record: $0, client: pipeline.firstSender(of: key)) }
        }
        // In the order the conversations began (records arrive as flows end).
        return conversations.enumerated().sorted {
            ($0.element.record.firstSeen, $0.offset) < ($1.element.record.firstSeen, $1.offset)
        }.map(\.element)
    }

    private func scan(_ tcp: TCPHeader, _ parsed: ParsedPacket, _ datagram: UnsafeRawBufferPointer) {
        let key = parsed.flowKey
        var state: TCPStreams
        switch streams[key] {
        case .settled?: return
        case .scanning(let scanning)?: state = scanning
        case nil: state = TCPStreams()
        }
        let fromClient = pipeline.lastDirection == .outbound
        let payload = UnsafeRawBufferPointer(rebasing: datagram[tcp.payloadRange])
        let isSyn = tcp.flags.contains(.syn)
        var facts: [FlowFact] = []
        var scanners = state.scanners
        if fromClient {
            state.fromClient.receive(sequence: SequenceNumber(tcp.sequence), isSyn: isSyn, payload: payload) {
                facts += scanners.client($0)
            }
        } else {
            state.fromServer.receive(sequence: SequenceNumber(tcp.sequence), isSyn: isSyn, payload: payload) {
                facts += scanners.server($0)
            }
        }
        state.scanners = scanners
        // A segment the capture cut leaves a hole no later segment fills: that stream ends here.
        if parsed.capturedLength < parsed.originalLength {
            if fromClient { state.fromClient = TCPStreamReassembler(limit: 0) } else { state.fromServer = TCPStreamReassembler(limit: 0) }
        }
        pipeline.observe(facts, for: key)
        let done = state.scanners.isSettled || (state.fromClient.isDone && state.fromServer.isDone)
        streams[key] = done ? .settled : .scanning(state)
    }
}

/// Keeps each flow's record, in the order flows appeared, folding the lifetimes of one 5-tuple
/// into one conversation (a late ACK after both FINs starts a new lifetime in the flow table, as
/// it does live, where the store folds them the same way). Nothing is refused.
private final class CollectedBatches: FlowPersisting {
    private var earlier: [FlowKey: FlowRecord] = [:]
    private var current: [FlowKey: FlowRecord] = [:]
    private(set) var order: [FlowKey] = []
    var outcomes = PersistenceOutcomes()

    func persist(_ batch: FlowStoreBatch) -> Bool {
        for record in batch.flows {
            if let previous = current.updateValue(record, forKey: record.key) {
                if previous.firstSeen != record.firstSeen {
                    earlier[record.key] = earlier[record.key].map { $0.followed(by: previous) } ?? previous
                }
            } else {
                order.append(record.key)
            }
        }
        outcomes.batchesWritten += 1
        return true
    }

    /// Every lifetime of `key` seen so far, as one record.
    func record(for key: FlowKey) -> FlowRecord? {
        guard let last = current[key] else { return nil }
        return earlier[key].map { $0.followed(by: last) } ?? last
    }

    nonisolated(nonsending) func drain() async {}
}

extension FlowRecord {
    /// This lifetime and a later one of the same 5-tuple as one record: totals added, the span
    /// from the first to the last, and each fact as first learned.
    func followed(by later: FlowRecord) -> FlowRecord {
        var merged = FlowRecord(key: key, firstSeen: firstSeen, tlsStatus: tlsStatus)
        merged.lastSeen = max(lastSeen, later.lastSeen)
        merged.bytesOut = bytesOut + later.bytesOut
        merged.bytesIn = bytesIn + later.bytesIn
        merged.packetCount = packetCount + later.packetCount
        merged.sni = sni ?? later.sni
        merged.resolvedName = resolvedName ?? later.resolvedName
        merged.serverTLS = serverTLS ?? later.serverTLS
        merged.clientTLS = clientTLS ?? later.clientTLS
        merged.quic = quic ?? later.quic
        merged.serverCertificates = serverCertificates ?? later.serverCertificates
        merged.streamOpening = streamOpening ?? later.streamOpening
        return merged
    }
}

/// Offline there is no live feed.
private final class DiscardedLiveFeed: LiveFeedSink {
    func publish(_ meta: PacketMeta) -> Bool { true }
    func notifyConsumer() {}
}
