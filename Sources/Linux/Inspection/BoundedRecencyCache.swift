/// A dictionary holding at most `capacity` entries: inserting past it drops the least recently
/// used one. Eviction scans (O(n)) — it happens once per minted host past the bound, beside a
/// certificate parse that costs far more.
struct BoundedRecencyCache<Key: Hashable, Value> {
    let capacity: Int
    private var entries: [Key: (value: Value, stamp: UInt64)] = [:]
    private var nextStamp: UInt64 = 0

    init(capacity: Int) {
        precondition(capacity > 0, "a cache needs room for one entry")
        self.capacity = capacity
    }

    var count: Int { entries.count }

    /// The value for `key`, now the most recently used.
    mutating func value(for key: Key) -> Value? {
        guard let entry = entries[key] else { return nil }
        entries[key] = (entry.value, stamp())
        return entry.value
    }

    mutating func insert(_ value: Value, for key: Key) {
        if entries[key] == nil, entries.count >= capacity,
           let oldest = entries.min(by: { $0.value.stamp < $1.value.stamp })?.key {
            entries[oldest] = nil
        }
        entries[key] = (value, stamp())
    }

    private mutating func stamp() -> UInt64 {
        nextStamp += 1
        return nextStamp
    }
}
