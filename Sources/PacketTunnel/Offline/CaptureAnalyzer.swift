import Foundation
import Shared

/// A capture made anywhere, read through the tunnel's own pipeline: the same parse, flow table,
/// DNS and QUIC naming, and — in place of the relay's streams — each TCP direction reassembled
/// from the segments for the same scanners. Directions come from who spoke first.
///
/// Pure: it is handed datagrams with their capture time and keeps every flow record the pipeline
/// writes; the shell reads the file, and writes the conversations into a store when asked. One
/// analyzer may count only a `CaptureShard` of the flows, so that several read one capture at once.
package final class CaptureAnalyzer {
    package typealias Conversation = AnalyzedCapture.Conversation

    let pipeline: PacketPipeline
    /// Who spoke first in each flow: the pipeline's direction rule, and each conversation's client.
    private let clients = FirstSenderDirection()
    private let collected = CollectedConversations()
    /// Each TCP flow's streams until its scanners settle; then only that it settled, so its
    /// later segments are not reassembled. Kept by the flow's slot in the flow table: no lookup
    /// of its own per segment, and a slot's next flow starts afresh.
    private var streams: [StreamState] = []

    /// The streams are a reference, so the array hands them out to advance in place: as a value,
    /// several hundred bytes of scanner state were copied out and back per segment.
    private enum StreamState {
        case none
        case scanning(TCPStreams)
        case settled
    }
    private var lastTick: UInt64 = 0
    /// The IP datagrams read so far: every worker reads every one, so a datagram's place is the
    /// same in all of them.
    private var datagramsRead = 0
    /// Each conversation's first datagram's place, by its key and first instant (a lifetime).
    private var firstDatagrams: [Lifetime: Int] = [:]

    private struct Lifetime: Hashable {
        let key: FlowKey
        let firstSeen: UInt64
    }
    /// What `conversations()` reported: the end of the reading, after which nothing is read.
    private var reported: [Conversation]?
    package private(set) var unreadable = 0
    /// Out-of-order data this analyzer's flows did not hold for their scanners.
    package private(set) var outOfOrderDrops = OutOfOrderDrops.none
    /// Bytes held ahead of gaps, over all flows.
    package private(set) var heldByteCount = 0
    /// Each counted packet, kept only when asked (`keepsPackets`): what a history's packet rows
    /// and activity counts are made of.
    package private(set) var packets: [PacketMeta] = []
    package let keepsPackets: Bool

    /// Bytes held ahead of gaps over all of one analyzer's flows, so that a capture with gaps in
    /// many flows at once stays within memory too: 2 048 flows at once could each hold the whole
    /// 12 KB handshake flight a real server sends behind a lost segment.
    static let maxHeldBytes = 16 << 20

    /// Both directions of one TCP flow, until the scanners settle.
    private final class TCPStreams {
        var scanners = TCPFlowScanners()
        var fromClient = TCPStreamReassembler(limit: TCPFlowScanners.clientStreamReach)
        var fromServer = TCPStreamReassembler(limit: TCPFlowScanners.serverStreamReach)
        /// What the segment being read taught, in order.
        var facts: [FlowFact] = []
    }

    /// Flows open at once before the least recently used is ended early: far more than the live
    /// tunnel's 4 096, since a capture may come from a busy server and memory is not a running
    /// tunnel's here (about half a kilobyte a flow).
    package static let maxOpenFlows = 1 << 16

    /// The part of the capture's flows this analyzer counts and reports.
    package let shard: CaptureShard

    /// Capture time is the clock: an anchor at the epoch makes "uptime" wall-clock nanoseconds. A
    /// store writing what this analyzer found must date it with this anchor, not its own.
    package static let captureClock = MonotonicAnchor(uptimeNanoseconds: 0, wallClockNanosecondsSince1970: 0)

    package init(shard: CaptureShard = .whole, keepsPackets: Bool = false) {
        self.shard = shard
        self.keepsPackets = keepsPackets
        var config = PacketPipeline.Config(captureEnabled: false, batchSize: 4096, flushInterval: .max,
                                           anchor: Self.captureClock)
        config.recordsEachPacket = false
        pipeline = PacketPipeline(flowTable: FlowTable(config: .init(maxFlows: Self.maxOpenFlows)), direction: clients,
                                  liveFeed: DiscardedLiveFeed(),
                                  capture: nil, store: collected, config: config)
    }

    /// One IP datagram of the capture (its first bytes, when the capture cut it at `originalLength`),
    /// stamped with its capture time.
    package func read(datagram: UnsafeRawBufferPointer, originalLength: Int, nanosecondsSince1970: Int64) {
        precondition(reported == nil, "a datagram read after the capture's end was reported")
        let now = UInt64(max(0, nanosecondsSince1970))
        let shard = shard
        datagramsRead += 1
        let place = datagramsRead
        let outcome = pipeline.handle(captured: datagram, originalLength: originalLength, now: now,
                                      admit: { shard.admission(of: $0, key: $1) }) { parsed, flow in
            if flow.counted.opened { firstDatagrams[Lifetime(key: flow.key, firstSeen: now), default: place] = place }
            if keepsPackets {
                packets.append(PacketMeta(timestamp: now, flowKey: flow.key, direction: flow.direction,
                                          length: UInt32(clamping: parsed.originalLength), tcpFlags: parsed.tcp?.flags ?? [], capture: nil))
            }
            if let tcp = parsed.tcp { scan(tcp, parsed, flow, datagram) }
        }
        // The first part counts what no part could read, so it is counted once.
        if outcome == .dropped && shard.keepsTallies { unreadable += 1 }
        if now >= lastTick &+ 1_000_000_000 {
            lastTick = now
            _ = pipeline.tick(now: now)
        }
    }

    /// The end of the capture: every flow still open is reported as it stands. In the order the
    /// conversations began (records arrive as flows end), at the same instant in capture order.
    /// Reported once (the records are moved out); a later call gives the same list.
    package func conversations() -> [Conversation] {
        if let reported { return reported }
        pipeline.flushActiveFlows()
        // Ordered by `Conversation.began(before:)`, then by when each was collected, on the keys
        // alone: each record is merged and moved out once, in that order.
        let order = collected.firstSeen.indices.map { index in
            let began = collected.firstSeen[index]
            return (began: began, firstDatagram: firstDatagrams[Lifetime(key: collected.key(at: index), firstSeen: began)] ?? .max,
                    index: index)
        }.sorted { one, other in
            if Conversation.began(one.began, one.firstDatagram, before: other.began, other.firstDatagram) { return true }
            if Conversation.began(other.began, other.firstDatagram, before: one.began, one.firstDatagram) { return false }
            return one.index < other.index
        }
        let conversations = order.map { place in
            let record = collected.takeRecord(at: place.index)
            return Conversation(record: record, client: clients.firstSender(of: record.key), firstDatagram: place.firstDatagram)
        }
        reported = conversations
        return conversations
    }

    private func scan(_ tcp: TCPHeader, _ parsed: ParsedPacket, _ flow: PacketPipeline.RecordedFlow,
                      _ datagram: UnsafeRawBufferPointer) {
        let slot = flow.counted.slot
        if slot >= streams.count { streams.append(contentsOf: repeatElement(.none, count: slot + 1 - streams.count)) }
        if flow.counted.opened { end(slot) }
        let state: TCPStreams
        switch streams[slot] {
        case .settled: return
        case .scanning(let scanning): state = scanning
        case .none:
            state = TCPStreams()
            streams[slot] = .scanning(state)
        }
        let fromClient = flow.direction == .outbound
        let payload = UnsafeRawBufferPointer(rebasing: datagram[tcp.payloadRange])
        let sequence = SequenceNumber(tcp.sequence)
        let isSyn = tcp.flags.contains(.syn)
        let room = Self.maxHeldBytes - heldByteCount
        if fromClient {
            account(&state.fromClient) { stream in
                stream.receive(sequence: sequence, isSyn: isSyn, payload: payload, room: room) { state.facts += state.scanners.client($0) }
            }
        } else {
            account(&state.fromServer) { stream in
                stream.receive(sequence: sequence, isSyn: isSyn, payload: payload, room: room) { state.facts += state.scanners.server($0) }
            }
        }
        // A segment the capture cut leaves a hole no later segment fills: that stream ends here.
        // So does one whose scanners settled: nothing behind a gap in it is wanted any more.
        if parsed.capturedLength < parsed.originalLength || (fromClient ? state.scanners.isClientSettled : state.scanners.isServerSettled) {
            if fromClient { retire(&state.fromClient) } else { retire(&state.fromServer) }
        }
        if !state.facts.isEmpty {
            pipeline.observe(state.facts, for: flow.key)
            state.facts.removeAll(keepingCapacity: true)
        }
        if flow.counted.closesFlow {
            end(slot)                               // the slot's next flow starts afresh anyway
        } else if state.scanners.isSettled || (state.fromClient.isDone && state.fromServer.isDone) {
            end(slot, settled: true)
        }
    }

    /// Runs `change` on one direction's reassembler and keeps the analyzer's totals of what it
    /// holds and what it did not hold.
    private func account(_ stream: inout TCPStreamReassembler, _ change: (inout TCPStreamReassembler) -> Void) {
        let (held, dropped) = (stream.heldByteCount, stream.notHeld)
        change(&stream)
        heldByteCount += stream.heldByteCount - held
        outOfOrderDrops.segments += stream.notHeld.segments - dropped.segments
        outOfOrderDrops.bytes += stream.notHeld.bytes - dropped.bytes
    }

    /// Ends one direction's reading: what it held is freed, and nothing more is held.
    private func retire(_ stream: inout TCPStreamReassembler) {
        guard !stream.isDone else { return }
        heldByteCount -= stream.release()
        stream = TCPStreamReassembler(limit: 0)
    }

    /// Ends the reading of the flow in `slot`, freeing what it held.
    private func end(_ slot: Int, settled: Bool = false) {
        if case .scanning(let state) = streams[slot] {
            heldByteCount -= state.fromClient.heldByteCount + state.fromServer.heldByteCount
        }
        streams[slot] = settled ? .settled : .none
    }
}

/// Offline there is no live feed.
private final class DiscardedLiveFeed: LiveFeedSink {
    func publish(_ meta: PacketMeta) -> Bool { true }
    func notifyConsumer() {}
}
