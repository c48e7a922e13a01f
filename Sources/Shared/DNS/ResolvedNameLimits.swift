/// How much a `ResolvedNameMap` keeps and for how long. No defaults: each owner states its own.
package struct ResolvedNameLimits: Sendable, Hashable {
    /// Most address–name pairs held at once.
    package let capacity: Int
    /// Most names held for one address (a CDN address serves many).
    package let namesPerAddress: Int
    /// Shortest life of a pair, seconds: TTL 0 and 1 answers exist, and the connection comes after
    /// the lookup, so a pair must outlive such a TTL to name anything.
    package let minimumLifetime: UInt32
    /// Longest life of a pair, seconds: a TTL can claim 136 years.
    package let maximumLifetime: UInt32

    package init(capacity: Int, namesPerAddress: Int, minimumLifetime: UInt32, maximumLifetime: UInt32) {
        precondition(capacity >= 1, "a map must hold at least one pair")
        precondition(namesPerAddress >= 1, "an address must keep at least one name")
        precondition(minimumLifetime <= maximumLifetime, "the lifetime floor is above the ceiling")
        self.capacity = capacity
        self.namesPerAddress = namesPerAddress
        self.minimumLifetime = minimumLifetime
        self.maximumLifetime = maximumLifetime
    }

    /// The tunnel's: 2048 pairs (names ≤ 253 bytes, so under 1 MB), 4 names an address, 1 minute to
    /// 1 day.
    package static let tunnel = ResolvedNameLimits(capacity: 2048, namesPerAddress: 4,
                                                  minimumLifetime: 60, maximumLifetime: 86_400)
}
