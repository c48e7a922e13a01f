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
        slots.withUnsafeMutableBufferPointer { slots in
            var child = slots.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard Slot.precedes(slots[child], slots[parent]) else { break }
                slots.swapAt(child, parent)
                child = parent
            }
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

    /// Both sifts compare and swap the slots where they lie, in one access to the storage: copying
    /// a slot out retains its name, and each access of its own retained the storage (~1 % of
    /// `analyze`, whose map is full and evicts on every answer).
    private mutating func siftDown(from start: Int) {
        slots.withUnsafeMutableBufferPointer { slots in
            var parent = start
            while true {
                let left = 2 * parent + 1
                guard left < slots.count else { return }
                var smallest = left
                if left + 1 < slots.count, Slot.precedes(slots[left + 1], slots[left]) { smallest = left + 1 }
                guard Slot.precedes(slots[smallest], slots[parent]) else { return }
                slots.swapAt(parent, smallest)
                parent = smallest
            }
        }
    }
}
