/// When a table a burst grew gives its room back: a service runs for weeks, and a burst of
/// connections (thousands lingering `closing` for 10 s) must not set its memory for ever
/// (measured: a routed service held 61 MB with 1 000 flows open after 36 000 short connections,
/// 48 MB without them; `tvlab bench tunnel`). Swift's arrays and dictionaries keep their
/// capacity when emptied, so the owners rebuild them smaller, between ticks, off the packet path.
package enum UnusedCapacity {
    /// Room for this many is always kept: below it, rebuilding costs more than it gives back.
    package static let floor = 4_096

    /// Whether a table holding `count` with room for `capacity` should be rebuilt: only once at
    /// most a quarter of the room is used, so a table that shrinks and grows again around one
    /// size does not rebuild each time.
    static func isWorthReleasing(count: Int, capacity: Int) -> Bool {
        capacity > floor && count * 4 < capacity
    }

    /// The room a rebuilt table gets: twice what it holds, at least `floor`.
    static func rebuiltCapacity(count: Int) -> Int { max(count * 2, floor) }
}

extension Dictionary {
    /// Rebuilds the dictionary with room for twice its entries when it uses at most a quarter of
    /// its room (`UnusedCapacity`).
    package mutating func releaseUnusedCapacity() {
        guard UnusedCapacity.isWorthReleasing(count: count, capacity: capacity) else { return }
        var rebuilt = Self(minimumCapacity: UnusedCapacity.rebuiltCapacity(count: count))
        for (key, value) in self { rebuilt[key] = value }
        self = rebuilt
    }
}
