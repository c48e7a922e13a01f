import Shared

/// The distinct connections seen this session, counted exactly up to `cap` and then said to be
/// "at least" that many: a session of a million connections must not cost a million keys.
public struct ConnectionTally: Sendable, Equatable {
    public let cap: Int
    private var seen: Set<FlowKey> = []

    public init(cap: Int) { self.cap = cap }

    public var count: Int { seen.count }
    /// Whether `count` stopped growing at the cap (more connections may have come since).
    public var reachedCap: Bool { seen.count >= cap }

    public mutating func note(_ key: FlowKey) {
        if seen.count < cap { seen.insert(key) }
    }

    public mutating func reset() { seen.removeAll() }
}
