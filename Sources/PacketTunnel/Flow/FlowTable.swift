import Shared

/// The flows alive now: one `FlowRecord` per 5-tuple and lifetime, counted packet by packet,
/// hard-bounded at `Config.maxFlows`. A full table gives up only a flow that is over, or else
/// refuses the new one (`FlowAdmission`): bookkeeping never cuts a live connection.
///
/// The spec makes this an actor; here it keeps the spec's contract, not its isolation, because it
/// is called synchronously for every packet by the one event-loop thread that owns the tunnel's
/// flows (STYLE practice 10): an actor hop per packet is exactly the cost a userspace relay must
/// not pay. Other threads reach it through that loop's queue.
///
/// Time is an input: every method that stamps or ages a flow takes `now`, monotonic nanoseconds
/// that never go backwards between calls (STYLE practice 7). The table reads no clock.
///
/// A TCP flow that ends (FIN from both sides, or RST) lingers `closing` for `Config.closingLinger`,
/// so its last ACK is still its own; a SYN that begins another connection on the 5-tuple
/// (`TCPConnectionStart`) ends the lifetime before it and starts a new one. Flows leave in three
/// ways: a closing flow whose linger is over, a lifetime a new connection ended, and a flow given
/// up for room go on the closed list for `drainClosed()`; `expireIdle(now:)` returns the idle
/// flows it closes. A later packet of a gone 5-tuple starts a new lifetime from zero.
package struct FlowTable: Sendable {
    package let config: Config
    private var slotByKey: [FlowKey: Int] = [:]
    /// One lane per `IdleClass`.
    private var flows: LRUList<Entry>
    private var closed: [ClosedFlow] = []
    /// Each slot's `localSide`, beside the flows: reading it must not copy a flow out.
    private var localSides: [IPEndpoint?] = []
    /// The slot the 5-tuples met lately were in, placed by a cheap unkeyed mix of the key
    /// (`recentPlace`): a hit, checked against the slot's own key, spares the seeded hash and the
    /// probe of `slotByKey` (hashing alone was ~4 % of `analyze`, one lookup per packet). A miss or a
    /// stale place falls back to `slotByKey`; unkeyed is safe here, as a crafted key can only miss.
    private var recentSlots = [Int](repeating: -1, count: recentSlotCount)
    static let recentSlotCount = 4096

    package init(config: Config = Config()) {
        precondition(config.maxFlows > 0, "a flow table holds at least one flow")
        self.config = config
        flows = LRUList(lanes: IdleClass.allCases.count + 1, vacant: Entry.vacant)
        // Room for the live tunnel's whole table up front; a larger cap (offline) grows as it fills,
        // since a sparse table far larger than its flows costs a cache miss per lookup.
        slotByKey.reserveCapacity(min(config.maxFlows, Self.reservedFlows))
    }

    static let reservedFlows = 4096

    /// A flow that left the table other than by idle expiry, and why.
    package struct ClosedFlow: Sendable, Equatable {
        package let record: FlowRecord
        package let reason: Reason

        package enum Reason: Sendable, Equatable {
            /// Its TCP connection ended (FIN both ways, or RST) and its linger is over, or another
            /// connection began on its 5-tuple.
            case ended
            /// Given up to make room for a new flow: idle past its timeout (live), or the least
            /// recently used (offline).
            case evicted
        }
    }

    /// Flows alive now, closing ones included; never more than `config.maxFlows`.
    package var count: Int { flows.count }
    /// Slots the table has room for, free ones included: what a burst grew it to, until
    /// `releaseUnusedCapacity`.
    package var slotCapacity: Int { flows.slotCapacity }

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
        let isNamedByDNS: Bool
        /// The flow's QUIC handshake may still be read (`settleQUICHandshake`).
        let readsQUICHandshake: Bool
        /// This packet ended the connection (an RST, or the second side's FIN): the flow lingers
        /// closing from now on.
        let closesFlow: Bool
    }

    /// Finds the live flow of `key` and makes it the most recently used: the first half of
    /// counting a packet, which needs the flow's local side to tell the packet's direction.
    /// Mutating for that, and also because the table's owner is a class: a non-mutating call
    /// through its property copied the whole table per packet (measured).
    package mutating func find(_ key: FlowKey) -> Found? {
        guard let slot = slot(of: key) else { return nil }
        flows.touch(slot)
        return Found(slot: slot, localSide: localSides[slot])
    }

    /// Counts one packet into its flow, creating the flow when new (`FlowAdmission` decides when
    /// the table is full). `resolvedName` names a new flow and is not even evaluated for an
    /// existing one: a flow's name never changes. `quic` is the reading that travelled with the
    /// packet, if any. nil: the flow was refused for want of room, and nothing was counted.
    ///
    /// The snapshot includes this packet, also when the packet ended the flow.
    @discardableResult
    package mutating func observe(_ packet: ParsedPacket, direction: Direction, length: UInt32, now: UInt64,
                                  resolvedName: @autoclosure () -> ResolvedFlowName? = nil,
                                  quic: QUICVersionReading? = nil) -> LiveFlow? {
        let key = packet.flowKey
        guard let counted = count(packet, key: key, found: find(key), direction: direction, length: length, now: now,
                                  resolvedName: resolvedName(), quic: quic) else { return nil }
        return flows[counted.slot].snapshot
    }

    /// `observe` for the per-packet path, after `find(key)` returned `found`: the flow is looked up
    /// once, and nothing of its record is copied out (`record(inSlot:)` does, when wanted).
    /// `localSide` is kept with a flow this packet opens. nil: the flow was refused for want of
    /// room, and nothing was counted.
    package mutating func count(_ packet: ParsedPacket, key: FlowKey, found: Found?, direction: Direction,
                                length: UInt32, now: UInt64, resolvedName: @autoclosure () -> ResolvedFlowName? = nil,
                                quic: QUICVersionReading? = nil, localSide: IPEndpoint? = nil) -> Counted? {
        var found = found
        if let slot = found?.slot, let tcp = packet.tcp, flows[slot].isStartOfAnotherConnection(tcp) {
            close(slot, .ended)
            found = nil
        }
        guard let slot = open(key, found: found, now: now, resolvedName: resolvedName(), localSide: localSide) else {
            return nil
        }
        let counted = flows[slot].count(tcp: packet.tcp, direction: direction, length: length, now: now,
                                        quic: quic, slot: slot, opened: found == nil)
        if counted.closesFlow { flows.move(slot, toLane: Self.closingLane) }
        return counted
    }

    /// The record of the live flow in `slot` (`Counted.slot`, while the flow is open). Mutating
    /// only so that its owner's call works in place: a non-mutating call through a class's
    /// property copied the whole table (measured).
    package mutating func record(inSlot slot: Int) -> FlowRecord { flows[slot].record }

    /// The machine's end of the flow in `slot`, as recorded when it opened (`FlowRecord.localEnd`).
    /// Mutating for the reason `record(inSlot:)` is: called for every packet recorded.
    package mutating func localEnd(inSlot slot: Int) -> IPEndpoint? { flows[slot].record.localEnd }

    /// The slot of the flow `find` found, or of a new one for `key`; nil when it is refused.
    private mutating func open(_ key: FlowKey, found: Found?, now: UInt64,
                               resolvedName: @autoclosure () -> ResolvedFlowName?, localSide: IPEndpoint?) -> Int? {
        if let found { return found.slot }
        guard let slot = open(key, now: now, resolvedName: resolvedName()) else { return nil }
        if slot == localSides.count { localSides.append(localSide) } else { localSides[slot] = localSide }
        return slot
    }

    /// The flow's record as it stands, or nil when it is not alive. Read-only: neither its recency
    /// nor its `lastSeen` moves (indexing decrypted chunks is not traffic).
    package func record(for key: FlowKey) -> FlowRecord? {
        (recentSlot(of: key) ?? slotByKey[key]).map { flows[$0].record }
    }

    /// Where the live flow of `key` is, if it is alive; remembered in `recentSlots`.
    private mutating func slot(of key: FlowKey) -> Int? {
        if let slot = recentSlot(of: key) { return slot }
        guard let slot = slotByKey[key] else { return nil }
        recentSlots[Self.recentPlace(of: key)] = slot
        return slot
    }

    /// The slot `recentSlots` has for `key`, if it still holds that key's live flow.
    private func recentSlot(of key: FlowKey) -> Int? {
        let slot = recentSlots[Self.recentPlace(of: key)]
        guard slot >= 0, flows.isOccupied(slot), flows[slot].record.key == key else { return nil }
        return slot
    }

    /// Bits of `stableMix` above those `CaptureShard` splits flows by, so that one worker's flows
    /// spread over every place.
    static func recentPlace(of key: FlowKey) -> Int {
        Int(truncatingIfNeeded: key.stableMix >> 32) & (recentSlotCount - 1)
    }

    /// Every live flow's record, for the periodic store flush; grouped by lane (idle class, then
    /// closing), least recently used first within each.
    package func activeRecords() -> [FlowRecord] {
        (0..<flows.laneCount).flatMap { flows.elementsFromLeastRecent(inLane: $0).map(\.record) }
    }

    /// Takes every live flow out of the table, in `activeRecords()` order: the end of an offline
    /// reading, where the records are moved out rather than copied.
    package mutating func removeAll() -> [FlowRecord] {
        var records: [FlowRecord] = []
        removeAll(into: &records)
        return records
    }

    /// `removeAll()` appended to `records`, each moved there.
    package mutating func removeAll(into records: inout [FlowRecord]) {
        records.reserveCapacity(records.count + count)
        for lane in 0..<flows.laneCount {
            while let slot = flows.leastRecent(inLane: lane) { records.append(flows.remove(slot).record) }
        }
        // At once rather than key by key: the table is empty.
        slotByKey.removeAll(keepingCapacity: true)
    }

    /// The status a flow starts with (flow-and-reassembly, initialTLSStatus): TCP to or from port
    /// 443 is taken to be TLS; everything else plaintext until a reading raises it.
    static func initialTLSStatus(for key: FlowKey) -> TLSInspectionStatus {
        let https = key.endpointA.port == WellKnownPort.https || key.endpointB.port == WellKnownPort.https
        return key.proto == .tcp && https ? .encrypted : .plaintext
    }

    private mutating func open(_ key: FlowKey, now: UInt64, resolvedName: ResolvedFlowName?) -> Int? {
        switch admission(now: now) {
        case .admit: break
        case .admitAfterEnding(let slot): close(slot, flows.lane(of: slot) == Self.closingLane ? .ended : .evicted)
        case .refuse: return nil
        }
        var record = FlowRecord(key: key, firstSeen: now, tlsStatus: Self.initialTLSStatus(for: key))
        record.resolvedName = resolvedName
        let slot = flows.pushMostRecent(Entry(record: record), lane: IdleClass(key).rawValue)
        slotByKey[key] = slot
        recentSlots[Self.recentPlace(of: key)] = slot
        return slot
    }

    /// Calls `body` on the live flow's record; does nothing when the flow is gone.
    /// The flow's QUIC handshake is read, or given up on: no reader again for this lifetime.
    mutating func settleQUICHandshake(of key: FlowKey) {
        guard let slot = slot(of: key) else { return }
        flows[slot].quicHandshakeSettled = true
    }

    mutating func updateRecord(of key: FlowKey, _ body: (inout FlowRecord) -> Void) {
        guard let slot = slot(of: key) else { return }
        body(&flows[slot].record)
    }

    /// Takes the flow out of the table, returning its record.
    private mutating func remove(_ slot: Int) -> FlowRecord {
        let record = flows.remove(slot).record
        slotByKey[record.key] = nil
        return record
    }

    /// Takes the flow out and puts its record on the closed list.
    private mutating func close(_ slot: Int, _ reason: ClosedFlow.Reason) {
        closed.append(ClosedFlow(record: remove(slot), reason: reason))
    }

    /// What `FlowAdmission` decides for one more flow now, from the tail of each lane.
    private func admission(now: UInt64) -> FlowAdmission {
        guard flows.count >= config.maxFlows else { return .admit }
        let tails = (0..<flows.laneCount).compactMap { lane -> FlowAdmission.LaneTail? in
            guard let slot = flows.leastRecent(inLane: lane) else { return nil }
            let lastSeen = flows[slot].record.lastSeen
            return FlowAdmission.LaneTail(slot: slot, silentFor: now >= lastSeen ? now - lastSeen : 0,
                                          timeout: timeout(ofLane: lane), isClosing: lane == Self.closingLane,
                                          recency: flows.stamp(of: slot))
        }
        return FlowAdmission.decide(count: flows.count, maxFlows: config.maxFlows, tails: tails, whenFull: config.whenFull)
    }

    private func timeout(ofLane lane: Int) -> UInt64 {
        IdleClass(rawValue: lane).map { config.idleTimeouts[$0] } ?? config.closingLinger
    }

    /// Gives back the room a burst of flows left once few of them remain (`UnusedCapacity`): the
    /// flows move to the lowest slots, so every slot handed out before is stale — a caller that
    /// keeps slots between packets (`CaptureAnalyzer`) must not call it. The live pipeline calls it
    /// between ticks.
    package mutating func releaseUnusedCapacity() {
        guard UnusedCapacity.isWorthReleasing(count: flows.count, capacity: flows.slotCapacity) else {
            slotByKey.releaseUnusedCapacity()
            return
        }
        // Renumbering rebuilds the key index anyway, at the size a release would give it.
        let renumbered = flows.compact()
        recentSlots = [Int](repeating: -1, count: Self.recentSlotCount)
        var rebuilt = [FlowKey: Int](minimumCapacity: UnusedCapacity.rebuiltCapacity(count: flows.count))
        for (key, slot) in slotByKey { rebuilt[key] = renumbered[slot] }
        slotByKey = rebuilt
        var sides = [IPEndpoint?](repeating: nil, count: flows.count)
        for (slot, placed) in renumbered.enumerated() where placed >= 0 { sides[placed] = localSides[slot] }
        localSides = sides
    }

    /// The flows that left since the last call, other than by idle expiry; each record exactly
    /// once. Each carries its key, so the runtime can also close the flows' relay connections from
    /// the same list.
    package mutating func drainClosed() -> [ClosedFlow] {
        defer { closed = [] }
        return closed
    }

    /// Closes and returns every flow silent for at least its class's idle timeout, and moves every
    /// closing flow whose linger is over to the closed list (`drainClosed()`, as ended). Each lane
    /// is ordered by last activity, so its sweep stops at the first flow not yet idle: the cost is
    /// the flows expired plus one look per lane. The idle records do not go to `drainClosed()`.
    package mutating func expireIdle(now: UInt64) -> [FlowRecord] {
        var expired: [FlowRecord] = []
        for lane in 0..<flows.laneCount {
            let timeout = timeout(ofLane: lane)
            while let slot = flows.leastRecent(inLane: lane),
                  now >= flows[slot].record.lastSeen, now - flows[slot].record.lastSeen >= timeout {
                if lane == Self.closingLane { close(slot, .ended) } else { expired.append(remove(slot)) }
            }
        }
        return expired
    }
}
