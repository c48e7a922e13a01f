/// What a full flow table does with a flow that wants in: the one decision that keeps the bound
/// without cutting a connection. Pure: it sees only the least recent flow of each lane.
///
/// The live tunnel gives up only what is over — a flow that ended and lingers `closing`, or one
/// silent past its idle timeout (the next tick would expire it anyway) — and otherwise refuses the
/// newcomer at its opening, where the client hears a clean "connection refused". Offline nothing is
/// cut by ending a record early, so the least recently used flow goes.
package enum FlowAdmission: Sendable, Equatable {
    /// Room for it.
    case admit
    /// Room once the flow in this slot is given up.
    case admitAfterEnding(slot: Int)
    /// No room: the new flow is refused, every flow held stays.
    case refuse

    /// What a full table does.
    package enum WhenFull: Sendable, Hashable {
        /// Give up only a closing or idle-expired flow; else refuse (the live tunnel).
        case refuseUnlessOver
        /// Give up the least recently used flow (an offline reading, where that only ends a record).
        case endLeastRecent
    }

    /// The least recent flow of one lane of the table.
    package struct LaneTail: Sendable, Equatable {
        package let slot: Int
        /// Nanoseconds since its last packet.
        package let silentFor: UInt64
        /// How long the lane's flows may stay silent: the class's idle timeout, or the linger of an
        /// ended flow.
        package let timeout: UInt64
        /// The flow ended (FIN both ways or RST) and only lingers.
        package let isClosing: Bool
        /// Its place in the recency of all lanes together (smaller is older).
        package let recency: UInt64

        package init(slot: Int, silentFor: UInt64, timeout: UInt64, isClosing: Bool, recency: UInt64) {
            (self.slot, self.silentFor, self.timeout, self.isClosing, self.recency) = (slot, silentFor, timeout, isClosing, recency)
        }
    }

    /// The decision for a table holding `count` of `maxFlows` flows whose lanes end in `tails`.
    package static func decide(count: Int, maxFlows: Int, tails: [LaneTail], whenFull: WhenFull) -> FlowAdmission {
        guard count >= maxFlows else { return .admit }
        switch whenFull {
        case .endLeastRecent:
            return tails.min { $0.recency < $1.recency }.map { .admitAfterEnding(slot: $0.slot) } ?? .refuse
        case .refuseUnlessOver:
            if let closing = tails.first(where: \.isClosing) { return .admitAfterEnding(slot: closing.slot) }
            let over = tails.filter { $0.silentFor >= $0.timeout }
            return over.max { $0.silentFor - $0.timeout < $1.silentFor - $1.timeout }
                .map { .admitAfterEnding(slot: $0.slot) } ?? .refuse
        }
    }
}
