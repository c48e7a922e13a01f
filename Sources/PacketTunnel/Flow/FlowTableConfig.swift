import Shared

extension FlowTable {
    /// The table's bounds. `maxFlows` is a hard cap: memory is the tunnel's survival. What a full
    /// table does with one more flow is `whenFull` (`FlowAdmission`): the live tunnel refuses it
    /// unless a flow that is over can make room, so no live connection is ever cut for room.
    package struct Config: Sendable, Hashable {
        package var maxFlows: Int = Config.defaultMaxFlows
        package var idleTimeouts = IdleTimeouts()
        package var whenFull: FlowAdmission.WhenFull = .refuseUnlessOver
        /// How long a TCP flow that ended (FIN both ways, or RST) stays `closing` after its last
        /// packet, so that the last ACK or a retransmitted FIN is counted into it instead of
        /// opening a one-packet flow. A retransmitted FIN comes after the peer's RTO, which starts
        /// at 1 s (RFC 6298 §2.1) and doubles: 10 s covers three of them; a SYN on the 5-tuple ends
        /// the lingering flow at once, so a reused port does not wait for it.
        package var closingLinger: UInt64 = 10 * FlowTable.nanosecondsPerSecond

        /// The live tunnel's cap: 32 768 flows. Measured (ConnectionScaleTests): 10 000 relayed
        /// TCP connections raised the tunnel's peak RSS from 29 MB to 68 MB, about 4 KB per flow in
        /// the table and the relay together, so a full table costs about 130 MB. A relayed TCP flow
        /// also holds a socket: the open file limit (raised to its hard limit at start) refuses
        /// connections before this cap does when it is lower.
        package static let defaultMaxFlows = 32_768

        package init(maxFlows: Int = Config.defaultMaxFlows, idleTimeouts: IdleTimeouts = IdleTimeouts(),
                     whenFull: FlowAdmission.WhenFull = .refuseUnlessOver) {
            self.maxFlows = maxFlows
            self.idleTimeouts = idleTimeouts
            self.whenFull = whenFull
        }

        /// The spec's form: one idle timeout (its default is 120 s) for every kind of flow.
        package init(maxFlows: Int = Config.defaultMaxFlows, idleTimeout: UInt64,
                     whenFull: FlowAdmission.WhenFull = .refuseUnlessOver) {
            let timeouts = IdleTimeouts(tcp: idleTimeout, udp: idleTimeout, dns: idleTimeout, other: idleTimeout)
            self.init(maxFlows: maxFlows, idleTimeouts: timeouts, whenFull: whenFull)
        }
    }

    /// How long each kind of flow may stay silent before `expireIdle` closes it, in monotonic
    /// nanoseconds. Idle expiry is the only end a flow without an end marker has, and the backstop
    /// for a TCP flow whose FIN or RST went unseen; the cap, not these, bounds memory.
    package struct IdleTimeouts: Sendable, Hashable {
        /// TCP ends with FIN or RST, which close a flow at once, so this only catches ends never
        /// seen. Five minutes outlasts the keep-alives long-lived connections send (HTTP/2 PING,
        /// SSH ServerAlive, push channels), so a quiet connection is not split into two flows.
        package var tcp: UInt64 = 300 * FlowTable.nanosecondsPerSecond
        /// UDP has no end marker. Two minutes is what NATs must keep a UDP mapping alive for
        /// (RFC 4787 §4.3, REQ-5), so applications already send something at least that often,
        /// QUIC included; it is also the spec's single default.
        package var udp: UInt64 = 120 * FlowTable.nanosecondsPerSecond
        /// UDP to or from port 53: one query and its answer, done in well under a second; the
        /// resolver's retry comes after 5 s (glibc `timeout:5`). Every query uses a fresh source
        /// port, so holding each exchange for two minutes would fill the table with dead lookups.
        package var dns: UInt64 = 10 * FlowTable.nanosecondsPerSecond
        /// ICMP and other protocols: an echo exchange is a second apart (ping's interval); 30 s is
        /// also Linux conntrack's ICMP timeout (`nf_conntrack_icmp_timeout`).
        package var other: UInt64 = 30 * FlowTable.nanosecondsPerSecond

        package init() {}

        package init(tcp: UInt64, udp: UInt64, dns: UInt64, other: UInt64) {
            (self.tcp, self.udp, self.dns, self.other) = (tcp, udp, dns, other)
        }

        /// The timeout of a class of flows.
        package subscript(idleClass: IdleClass) -> UInt64 {
            switch idleClass {
            case .tcp: tcp
            case .udp: udp
            case .dns: dns
            case .other: other
            }
        }
    }

    /// The kind of flow that decides its idle timeout; each class is one lane of the LRU list, so
    /// each lane is ordered by last activity and its sweep stops at the first flow not yet idle.
    /// Flows that ended and linger `closing` have a lane of their own after these (`closingLane`).
    package enum IdleClass: Int, Sendable, CaseIterable {
        case tcp, udp, dns, other

        /// Decided by the key alone, so a flow never changes class in its lifetime.
        package init(_ key: FlowKey) {
            switch key.proto {
            case .tcp: self = .tcp
            case .udp where key.endpointA.port == WellKnownPort.dns || key.endpointB.port == WellKnownPort.dns: self = .dns
            case .udp: self = .udp
            default: self = .other
            }
        }
    }

    /// The lane of flows that ended and linger (`Config.closingLinger`).
    static let closingLane = IdleClass.allCases.count

    static let nanosecondsPerSecond: UInt64 = 1_000_000_000
}
