/// A binary min-heap of references to a `ResolvedNameMap`'s pairs, ordered by one instant
/// (resolved-at for eviction, expires-at for expiry), so the map finds its next victim in
/// O(log n) instead of scanning every pair.
///
/// Removal is lazy: a pair that is renewed or dropped leaves its old slot behind, and the map skips
/// slots whose stamp no longer matches the pair. The map rebuilds the queue when stale slots
/// outnumber live ones, which keeps it within a constant factor of the capacity.
struct ResolvedNameQueue: Sendable {
    struct Slot: Sendable {
        /// The instant the queue is ordered by.
        let key: UInt64
        let address: IPAddress
        let name: String
        /// Which version of the pair this slot refers to (unique per record or renewal).
        let stamp: UInt64

        /// Total order: earlier key first, then lower address, then the name that loses the
        /// tie-break (the greater one), then the older stamp. The same order whatever the
        /// dictionary's iteration order was, so eviction is deterministic.
        static func precedes(_ lhs: Slot, _ rhs: Slot) -> Bool {
            if lhs.key != rhs.key { return lhs.key < rhs.key }
            if lhs.address != rhs.address { return lhs.address < rhs.address }
            if lhs.name != rhs.name { return lhs.name > rhs.name }
            return lhs.stamp < rhs.stamp
        }
    }

    private var slots: [Slot] = []

    var count: Int { slots.count }
    var first: Slot? { slots.first }

    mutating func push(_ slot: Slot) {
        slots.append(slot)
        var child = slots.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(child, parent) else { break }
            slots.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popFirst() -> Slot? {
        guard !slots.isEmpty else { return nil }
        slots.swapAt(0, slots.count - 1)
        let first = slots.removeLast()
        siftDown(from: 0)
        return first
    }

    /// Replaces the contents with `slots`, heapified in O(n).
    mutating func rebuild(_ newSlots: [Slot]) {
        slots = newSlots
        var index = slots.count / 2
        while index > 0 {
            index -= 1
            siftDown(from: index)
        }
    }

    /// The slot at `lhs` precedes the one at `rhs`, compared where they lie: copying a slot out
    /// retains its name.
    private func precedes(_ lhs: Int, _ rhs: Int) -> Bool {
        slots.withUnsafeBufferPointer { Slot.precedes($0[lhs], $0[rhs]) }
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < slots.count else { return }
            var smallest = left
            if left + 1 < slots.count, precedes(left + 1, left) { smallest = left + 1 }
            guard precedes(smallest, parent) else { return }
            slots.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
