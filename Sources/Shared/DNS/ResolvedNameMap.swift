/// Which name had the device asked for when it was given this address? Learned from the DNS
/// replies that cross the tunnel, asked once per new flow, for flows the ClientHello cannot name
/// (QUIC, plain TCP, other UDP).
///
/// A pure value: instants are passed in (packet-clock nanoseconds, as `PacketMeta.timestamp`),
/// nothing is read from a clock or disk, and it knows nothing of flows. Bounded by `limits`: never
/// more than `capacity` address–name pairs, never more than `namesPerAddress` names an address.
/// A lookup costs O(namesPerAddress); recording costs O(log capacity) amortised.
package struct ResolvedNameMap: Sendable {
    package let limits: ResolvedNameLimits
    /// Pairs held, expired ones not yet dropped included.
    package private(set) var count = 0

    struct Pair: Sendable {
        var name: String
        var resolvedAt: UInt64
        var expiresAt: UInt64
        var stamp: UInt64

        /// The order names of one address are shown in: most recently resolved first, then the
        /// lexicographically smaller name.
        static func ranksBefore(_ lhs: Pair, _ rhs: Pair) -> Bool {
            lhs.resolvedAt != rhs.resolvedAt ? lhs.resolvedAt > rhs.resolvedAt : lhs.name < rhs.name
        }
    }

    /// Each address's names (at most `namesPerAddress`, unordered).
    private var pairs: [IPAddress: [Pair]] = [:]
    /// Every pair by resolved-at: the front is the least recently resolved, the eviction victim.
    private var byRecency = ResolvedNameQueue()
    /// Every pair by expires-at: the front is the next to expire.
    private var byExpiry = ResolvedNameQueue()
    private var nextStamp: UInt64 = 0

    package init(limits: ResolvedNameLimits) {
        self.limits = limits
    }

    /// The address's most recently resolved live name with its live competitors, or nil when no
    /// live name is held. A pair is live while `expiresAt > instant`.
    package func name(for address: IPAddress, at instant: UInt64) -> ResolvedName? {
        guard let held = pairs[address] else { return nil }
        if held.count == 1 {
            let only = held[0]
            return only.expiresAt > instant ? ResolvedName(name: only.name, resolvedAt: only.resolvedAt) : nil
        }
        let live = held.filter { $0.expiresAt > instant }.sorted(by: Pair.ranksBefore)
        guard let winner = live.first else { return nil }
        return ResolvedName(name: winner.name, resolvedAt: winner.resolvedAt, otherNames: live.dropFirst().map(\.name))
    }

    /// Drops every pair expired at `instant`; returns how many.
    @discardableResult
    package mutating func removeExpired(at instant: UInt64) -> Int {
        var removed = 0
        while let slot = byExpiry.first, slot.key <= instant {
            _ = byExpiry.popFirst()
            if remove(slot) { removed += 1 }
        }
        return removed
    }

    /// Records that `address` was given for `name` at `instant`, live for `lifetime` seconds:
    /// renews the pair if held (evicting nothing), else makes room and adds it.
    mutating func record(_ name: String, for address: IPAddress, lifetime: UInt32, at instant: UInt64) {
        let (sum, overflow) = instant.addingReportingOverflow(UInt64(lifetime) * 1_000_000_000)
        let expiresAt = overflow ? UInt64.max : sum
        let stamp = nextStamp
        nextStamp &+= 1
        let pair = Pair(name: name, resolvedAt: instant, expiresAt: expiresAt, stamp: stamp)

        if let index = pairs[address]?.firstIndex(where: { $0.name == name }) {
            pairs[address]![index] = pair
        } else {
            makeRoom(for: address, at: instant)
            pairs[address, default: []].append(pair)
            count += 1
        }
        byRecency.push(.init(key: instant, address: address, name: name, stamp: stamp))
        byExpiry.push(.init(key: expiresAt, address: address, name: name, stamp: stamp))
        compactIfStale()
    }

    /// Frees one place for a new pair of `address`: within the address when it holds its limit
    /// (its expired names first, else its least recently resolved), else in the map when full
    /// (every expired pair first, else the least recently resolved pair, ties broken by address).
    private mutating func makeRoom(for address: IPAddress, at instant: UInt64) {
        if let held = pairs[address], held.count >= limits.namesPerAddress {
            let expired = held.filter { $0.expiresAt <= instant }
            if !expired.isEmpty {
                for pair in expired { removePair(named: pair.name, of: address) }
            } else if let victim = held.max(by: Pair.ranksBefore) {
                removePair(named: victim.name, of: address)
            }
            return
        }
        guard count >= limits.capacity else { return }
        removeExpired(at: instant)
        while count >= limits.capacity, let slot = byRecency.popFirst() {
            _ = remove(slot)
        }
    }

    /// Removes the pair `slot` refers to, if the slot is still current; true when it was.
    private mutating func remove(_ slot: ResolvedNameQueue.Slot) -> Bool {
        guard let held = pairs[slot.address],
              held.contains(where: { $0.name == slot.name && $0.stamp == slot.stamp }) else { return false }
        removePair(named: slot.name, of: slot.address)
        return true
    }

    private mutating func removePair(named name: String, of address: IPAddress) {
        guard var held = pairs.removeValue(forKey: address),
              let index = held.firstIndex(where: { $0.name == name }) else { return }
        held.remove(at: index)
        count -= 1
        if !held.isEmpty { pairs[address] = held }
    }

    /// Rebuilds both queues from the live pairs once stale slots outnumber them, so renewals and
    /// removals cannot grow the queues without bound. Amortised O(1) per record.
    private mutating func compactIfStale() {
        guard byRecency.count > 2 * count + 64 || byExpiry.count > 2 * count + 64 else { return }
        var recency: [ResolvedNameQueue.Slot] = []
        var expiry: [ResolvedNameQueue.Slot] = []
        recency.reserveCapacity(count)
        expiry.reserveCapacity(count)
        for (address, held) in pairs {
            for pair in held {
                recency.append(.init(key: pair.resolvedAt, address: address, name: pair.name, stamp: pair.stamp))
                expiry.append(.init(key: pair.expiresAt, address: address, name: pair.name, stamp: pair.stamp))
            }
        }
        byRecency.rebuild(recency)
        byExpiry.rebuild(expiry)
    }
}
