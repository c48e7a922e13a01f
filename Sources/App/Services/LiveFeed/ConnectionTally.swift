import Shared

/// The distinct connections seen this session, counted exactly up to `cap` and then said to be
/// "at least" that many: a session of a million connections must not cost a million keys.
package struct ConnectionTally: Sendable, Equatable {
    package let cap: Int
    private var seen: Set<FlowKey> = []

    package init(cap: Int) { self.cap = cap }

    package var count: Int { seen.count }
    /// Whether `count` stopped growing at the cap (more connections may have come since).
    package var reachedCap: Bool { seen.count >= cap }

    package mutating func note(_ key: FlowKey) {
        if seen.count < cap { seen.insert(key) }
    }

    package mutating func reset() { seen.removeAll() }
}
