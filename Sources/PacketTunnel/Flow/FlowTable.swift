import Shared

/// The flows alive now: one `FlowRecord` per 5-tuple, counted packet by packet, hard-bounded at
/// `Config.maxFlows` by evicting the least recently used flow.
///
/// The spec makes this an actor; here it keeps the spec's contract, not its isolation, because it
/// is called synchronously for every packet by the one event-loop thread that owns the tunnel's
/// flows (STYLE practice 10): an actor hop per packet is exactly the cost a userspace relay must
/// not pay. Other threads reach it through that loop's queue.
///
/// Time is an input: every method that stamps or ages a flow takes `now`, monotonic nanoseconds
/// that never go backwards between calls (STYLE practice 7). The table reads no clock.
///
/// Flows leave in three ways: TCP's end (FIN from both sides, or RST) and LRU eviction put the
/// record on the closed list for `drainClosed()`; `expireIdle(now:)` returns what it closes. A
/// later packet of a gone 5-tuple starts a new lifetime from zero.
package struct FlowTable: Sendable {
    package let config: Config
    private var slotByKey: [FlowKey: Int] = [:]
    /// One lane per `IdleClass`.
    private var flows: LRUList<Entry>
    private var closed: [FlowRecord] = []
    /// Each slot's `localSide`, beside the flows: reading it must not copy a flow out.
    private var localSides: [IPEndpoint?] = []

    package init(config: Config = Config()) {
        precondition(config.maxFlows > 0, "a flow table holds at least one flow")
        self.config = config
        flows = LRUList(lanes: IdleClass.allCases.count)
        // Room for the live tunnel's whole table up front; a larger cap (offline) grows as it fills,
        // since a sparse table far larger than its flows costs a cache miss per lookup.
        slotByKey.reserveCapacity(min(config.maxFlows, Self.reservedFlows))
    }

    static let reservedFlows = 4096

    /// Flows alive now; never more than `config.maxFlows`.
    package var count: Int { flows.count }

    /// A live flow a packet belongs to, as `find` returns it.
    package struct Found: Sendable {
        fileprivate let slot: Int
        /// The side the owner called local when the flow opened (`count(localSide:)`).
        package let localSide: IPEndpoint?
    }

    /// What counting one packet did to its flow: the few facts the per-packet path needs, read
    /// without copying the flow's record out.
    package struct Counted: Sendable {
        /// The flow's place in the table: the same for every packet of one lifetime, and taken
        /// by another flow once this one leaves — whose first packet then says `opened`. An
        /// owner can keep per-flow state in an array by it, without a lookup of its own.
        package let slot: Int
        /// This packet began the flow.
        package let opened: Bool
        /// The flow began with a name from DNS.
        package let isNamedByDNS: Bool
        /// The flow has its SNI.
        package let hasServerName: Bool
        /// An RST, or the second side's FIN: the flow leaves the table for the closed list.
        package let closesFlow: Bool
    }

    /// Finds the live flow of `key` and makes it the most recently used: the first half of
    /// counting a packet, which needs the flow's local side to tell the packet's direction.
    /// Mutating for that, and also because the table's owner is a class: a non-mutating call
    /// through its property copied the whole table per packet (measured).
    package mutating func find(_ key: FlowKey) -> Found? {
        guard let slot = slotByKey[key] else { return nil }
        flows.touch(slot)
        return Found(slot: slot, localSide: localSides[slot])
    }

    /// Counts one packet into its flow, creating the flow when new (evicting the least recently
    /// used one first when the table is full). `resolvedName` names a new flow and is not even
    /// evaluated for an existing one: a flow's name never changes. `quic` is the reading that travelled with the
    /// packet, if any.
    ///
    /// The snapshot includes this packet, also when the packet closed the flow.
    @discardableResult
    package mutating func observe(_ packet: ParsedPacket, direction: Direction, length: UInt32, now: UInt64,
                                  resolvedName: @autoclosure () -> ResolvedFlowName? = nil,
                                  quic: QUICVersionReading? = nil) -> LiveFlow {
        let key = packet.flowKey
        let found = find(key)
        let slot = open(key, found: found, now: now, resolvedName: resolvedName(), localSide: nil)
        let counted = flows[slot].count(tcpFlags: packet.tcp?.flags, direction: direction, length: length, now: now,
                                        quic: quic, slot: slot, opened: found == nil)
        let snapshot = flows[slot].snapshot
        if counted.closesFlow { close(slot) }
        return snapshot
    }

    /// `observe` for the per-packet path, after `find(key)` returned `found`: the flow is looked up
    /// once, and nothing of its record is copied out (`record(inSlot:)` does, when wanted).
    /// `localSide` is kept with a flow this packet opens.
    package mutating func count(_ packet: ParsedPacket, key: FlowKey, found: Found?, direction: Direction,
                                length: UInt32, now: UInt64, resolvedName: @autoclosure () -> ResolvedFlowName? = nil,
                                quic: QUICVersionReading? = nil, localSide: IPEndpoint? = nil) -> Counted {
        let slot = open(key, found: found, now: now, resolvedName: resolvedName(), localSide: localSide)
        let counted = flows[slot].count(tcpFlags: packet.tcp?.flags, direction: direction, length: length, now: now,
                                        quic: quic, slot: slot, opened: found == nil)
        if counted.closesFlow { close(slot) }
        return counted
    }

    /// The record of the live flow in `slot` (`Counted.slot`, while the flow is open). Mutating
    /// only so that its owner's call works in place: a non-mutating call through a class's
    /// property copied the whole table (measured).
    package mutating func record(inSlot slot: Int) -> FlowRecord { flows[slot].record }

    /// The slot of the flow `find` found, or of a new one for `key`.
    private mutating func open(_ key: FlowKey, found: Found?, now: UInt64,
                               resolvedName: @autoclosure () -> ResolvedFlowName?, localSide: IPEndpoint?) -> Int {
        if let found { return found.slot }
        let slot = open(key, now: now, resolvedName: resolvedName())
        if slot == localSides.count { localSides.append(localSide) } else { localSides[slot] = localSide }
        return slot
    }

    /// The flow's record as it stands, or nil when it is not alive. Read-only: neither its recency
    /// nor its `lastSeen` moves (indexing decrypted chunks is not traffic).
    package func record(for key: FlowKey) -> FlowRecord? {
        slotByKey[key].map { flows[$0].record }
    }

    /// Every live flow's record, for the periodic store flush; grouped by idle class, least
    /// recently used first within each.
    package func activeRecords() -> [FlowRecord] {
        IdleClass.allCases.flatMap { flows.elementsFromLeastRecent(inLane: $0.rawValue).map(\.record) }
    }

    /// Takes every live flow out of the table, in `activeRecords()` order: the end of an offline
    /// reading, where the records are moved out rather than copied.
    package mutating func removeAll() -> [FlowRecord] {
        var records: [FlowRecord] = []
        records.reserveCapacity(count)
        for idleClass in IdleClass.allCases {
            while let slot = flows.leastRecent(inLane: idleClass.rawValue) { records.append(remove(slot)) }
        }
        return records
    }

    /// The status a flow starts with (flow-and-reassembly, initialTLSStatus): TCP to or from port
    /// 443 is taken to be TLS; everything else plaintext until a reading raises it.
    static func initialTLSStatus(for key: FlowKey) -> TLSInspectionStatus {
        let https = key.endpointA.port == WellKnownPort.https || key.endpointB.port == WellKnownPort.https
        return key.proto == .tcp && https ? .encrypted : .plaintext
    }

    private mutating func open(_ key: FlowKey, now: UInt64, resolvedName: ResolvedFlowName?) -> Int {
        if flows.count >= config.maxFlows, let leastRecent = flows.leastRecentOverall {
            close(leastRecent)
        }
        var record = FlowRecord(key: key, firstSeen: now, tlsStatus: Self.initialTLSStatus(for: key))
        record.resolvedName = resolvedName
        let slot = flows.pushMostRecent(Entry(record: record), lane: IdleClass(key).rawValue)
        slotByKey[key] = slot
        return slot
    }

    /// Calls `body` on the live flow's record; does nothing when the flow is gone.
    mutating func updateRecord(of key: FlowKey, _ body: (inout FlowRecord) -> Void) {
        guard let slot = slotByKey[key] else { return }
        body(&flows[slot].record)
    }

    /// Takes the flow out of the table, returning its record.
    private mutating func remove(_ slot: Int) -> FlowRecord {
        let record = flows.remove(slot).record
        slotByKey[record.key] = nil
        return record
    }

    /// Takes the flow out and puts its record on the closed list.
    private mutating func close(_ slot: Int) {
        closed.append(remove(slot))
    }

    /// The flows closed or evicted since the last call; each record exactly once. Each carries its
    /// key, so the runtime can also close the flows' relay connections from the same list.
    package mutating func drainClosed() -> [FlowRecord] {
        defer { closed = [] }
        return closed
    }

    /// Closes and returns every flow silent for at least its class's idle timeout. Each lane is
    /// ordered by last activity, so its sweep stops at the first flow not yet idle: the cost is the
    /// flows expired plus one look per lane. These records do not go to `drainClosed()`.
    package mutating func expireIdle(now: UInt64) -> [FlowRecord] {
        var expired: [FlowRecord] = []
        for idleClass in IdleClass.allCases {
            let timeout = config.idleTimeouts[idleClass]
            while let slot = flows.leastRecent(inLane: idleClass.rawValue),
                  now >= flows[slot].record.lastSeen, now - flows[slot].record.lastSeen >= timeout {
                expired.append(remove(slot))
            }
        }
        return expired
    }
}
