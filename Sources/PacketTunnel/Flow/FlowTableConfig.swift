import Shared

extension FlowTable {
    /// The table's bounds. `maxFlows` is a hard cap (the spec's "e.g. 4096"): memory is the
    /// tunnel's survival, so the least recently used flow is evicted before a new one is created.
    package struct Config: Sendable, Hashable {
        package var maxFlows: Int = 4096
        package var idleTimeouts = IdleTimeouts()

        package init(maxFlows: Int = 4096, idleTimeouts: IdleTimeouts = IdleTimeouts()) {
            self.maxFlows = maxFlows
            self.idleTimeouts = idleTimeouts
        }

        /// The spec's form: one idle timeout (its default is 120 s) for every kind of flow.
        package init(maxFlows: Int = 4096, idleTimeout: UInt64) {
            let timeouts = IdleTimeouts(tcp: idleTimeout, udp: idleTimeout, dns: idleTimeout, other: idleTimeout)
            self.init(maxFlows: maxFlows, idleTimeouts: timeouts)
        }
    }

    /// How long each kind of flow may stay silent before `expireIdle` closes it, in monotonic
    /// nanoseconds. Idle expiry is the only end a flow without an end marker has, and the backstop
    /// for a TCP flow whose FIN or RST went unseen; the LRU cap, not these, bounds memory.
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

    static let nanosecondsPerSecond: UInt64 = 1_000_000_000
}
