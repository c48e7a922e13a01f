import Shared

extension FlowTable {
    /// What the table holds per flow: the record plus what only the live table needs — packet
    /// counts per direction, which sides have sent their FIN, and the ISN of the SYN that opened it.
    struct Entry: Sendable {
        var record: FlowRecord
        var packetsOut: UInt64 = 0
        var packetsIn: UInt64 = 0
        var finOutbound = false
        var finInbound = false
        /// An RST, or a FIN from each side: the flow lingers `closing`, then leaves.
        var hasEnded = false
        /// The sequence number of the SYN that began this lifetime; nil when it began mid-stream.
        var openingSequence: UInt32?
        /// Both sides of its QUIC handshake were read, or given up: no reader is made again.
        var quicHandshakeSettled = false

        init(record: FlowRecord) {
            self.record = record
        }

        /// What a free slot of the table holds: a record of no flow, owning nothing.
        static let vacant = Entry(record: FlowRecord(
            key: FlowKey(proto: .other, source: IPEndpoint(address: IPAddress(ipv4: 0), port: 0),
                         destination: IPEndpoint(address: IPAddress(ipv4: 0), port: 0)),
            firstSeen: 0, tlsStatus: .plaintext))

        /// Counts one packet (`count`, `apply(quic)`, `seeEnd`) and says what the per-packet path
        /// needs to know, all in one in-place access: reading an entry through the table copies it.
        mutating func count(tcp: TCPHeader?, direction: Direction, length: UInt32, now: UInt64,
                            quic: QUICVersionReading?, slot: Int, opened: Bool) -> Counted {
            count(direction: direction, length: length, now: now)
            if let quic { record.apply(quic) }
            let endedBefore = hasEnded
            if let tcp {
                if opened && TCPConnectionStart.opensConnection(tcp.flags) { openingSequence = tcp.sequence }
                seeEnd(of: tcp.flags, direction: direction)
            }
            return Counted(slot: slot, opened: opened, isNamedByDNS: record.resolvedName != nil, readsQUICHandshake: !quicHandshakeSettled,
                           closesFlow: hasEnded && !endedBefore)
        }

        /// This segment begins another connection on the flow's 5-tuple (`TCPConnectionStart`).
        /// Mutating only so that the table's per-packet call works in place: read through the
        /// table's slots, the entry was copied out whole (a retain per reference), inlined or not.
        mutating func isStartOfAnotherConnection(_ tcp: TCPHeader) -> Bool {
            TCPConnectionStart.beginsAnotherConnection(flags: tcp.flags, sequence: tcp.sequence,
                                                       openingSequence: openingSequence, previousEnded: hasEnded)
        }

        /// Adds one packet of `length` IP bytes. Counters wrap rather than trap: a flow that
        /// outlives 2^64 bytes is not a reason to stop the tunnel.
        mutating func count(direction: Direction, length: UInt32, now: UInt64) {
            switch direction {
            case .outbound:
                record.bytesOut &+= UInt64(length)
                packetsOut &+= 1
            case .inbound:
                record.bytesIn &+= UInt64(length)
                packetsIn &+= 1
            }
            record.packetCount &+= 1
            record.lastSeen = now
        }

        /// Notes a TCP segment's flags; `hasEnded` once the connection has ended: an RST (RFC 9293
        /// §3.10.7.4, the connection is gone at once) or a FIN from each side (both have said
        /// they send no more, §3.6).
        mutating func seeEnd(of flags: TCPFlags, direction: Direction) {
            if flags.contains(.rst) { hasEnded = true }
            if flags.contains(.fin) {
                switch direction {
                case .outbound: finOutbound = true
                case .inbound: finInbound = true
                }
            }
            if finOutbound && finInbound { hasEnded = true }
        }

        var snapshot: LiveFlow {
            LiveFlow(key: record.key, record: record, lastActivity: record.lastSeen,
                     packetsOut: packetsOut, packetsIn: packetsIn)
        }
    }
}
