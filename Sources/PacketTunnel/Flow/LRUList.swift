/// Recency lists over one arena of slots: doubly linked through slot indices, not references, so
/// touching an element on every packet allocates nothing and retains nothing once the arena has
/// grown to its working size, and a freed slot is the next one handed out.
///
/// Elements sit in *lanes*, one list each, so each lane stays ordered by its own recency: the
/// flow table keeps one lane per idle timeout and sweeps each from its tail, stopping at the first
/// element not yet idle. Every push and touch also takes a stamp from one counter, so the oldest of
/// the lane tails is the least recent element of all lanes together (`leastRecentOverall`).
///
/// A slot index stays valid until its element is removed; using it afterwards is a programming
/// error and traps.
struct LRUList<Element> {
    fileprivate struct Slot {
        /// nil while the slot is free.
        var element: Element?
        /// Neighbours towards the lane's head and tail; `none` at the ends. A free slot chains the
        /// free list through `lessRecent`.
        var moreRecent: Int
        var lessRecent: Int
        var lane: Int
        var stamp: UInt64
        /// `element != nil`, kept apart: testing the optional itself copied the element out on
        /// every access (a whole flow record, measured in the offline analyzer's profile).
        var isOccupied = true
    }

    private static var none: Int { -1 }

    private var slots: [Slot] = []
    private var mostRecent: [Int]
    private var leastRecent: [Int]
    private var firstFree = LRUList.none
    private var nextStamp: UInt64 = 0
    private(set) var count = 0

    init(lanes: Int) {
        precondition(lanes > 0, "an LRU list needs at least one lane")
        mostRecent = Array(repeating: Self.none, count: lanes)
        leastRecent = mostRecent
    }

    var laneCount: Int { mostRecent.count }
    /// Slots ever allocated, free ones included: the arena's high-water mark.
    var slotCapacity: Int { slots.count }

    subscript(slot: Int) -> Element {
        _read {
            precondition(slots[slot].isOccupied, "slot \(slot) is free")
            yield slots[slot].element!
        }
        _modify {
            precondition(slots[slot].isOccupied, "slot \(slot) is free")
            yield &slots[slot].element!
        }
    }

    func lane(of slot: Int) -> Int { slots[slot].lane }

    /// Adds `element` as the most recent of `lane`, reusing a freed slot when there is one.
    mutating func pushMostRecent(_ element: Element, lane: Int) -> Int {
        let slot: Int
        let fresh = Slot(element: element, moreRecent: Self.none, lessRecent: Self.none, lane: lane, stamp: 0)
        if firstFree != Self.none {
            slot = firstFree
            firstFree = slots[slot].lessRecent
            slots[slot] = fresh
        } else {
            slot = slots.count
            slots.append(fresh)
        }
        count += 1
        linkAsMostRecent(slot)
        return slot
    }

    /// Makes the element at `slot` the most recent of its lane.
    mutating func touch(_ slot: Int) {
        precondition(slots[slot].isOccupied, "slot \(slot) is free")
        if mostRecent[slots[slot].lane] == slot {
            slots[slot].stamp = takeStamp()
            return
        }
        unlink(slot)
        linkAsMostRecent(slot)
    }

    /// Takes the element out and frees its slot for the next push.
    @discardableResult
    mutating func remove(_ slot: Int) -> Element {
        precondition(slots[slot].isOccupied, "slot \(slot) is free")
        unlink(slot)
        let element = slots[slot].element.take()!
        slots[slot].isOccupied = false
        slots[slot].lessRecent = firstFree
        firstFree = slot
        count -= 1
        return element
    }

    /// The slot of the least recent element in `lane`, or nil when the lane is empty.
    func leastRecent(inLane lane: Int) -> Int? {
        let slot = leastRecent[lane]
        return slot == Self.none ? nil : slot
    }

    /// The slot of the least recent element of all lanes: the oldest stamp among the lane tails.
    var leastRecentOverall: Int? {
        var oldest: Int?
        for slot in leastRecent where slot != Self.none {
            if oldest.map({ slots[slot].stamp < slots[$0].stamp }) ?? true { oldest = slot }
        }
        return oldest
    }

    mutating func popLeastRecent() -> Element? {
        leastRecentOverall.map { remove($0) }
    }

    /// The elements of `lane`, least recent first.
    func elementsFromLeastRecent(inLane lane: Int) -> [Element] {
        var elements: [Element] = []
        var slot = leastRecent[lane]
        while slot != Self.none {
            elements.append(slots[slot].element!)
            slot = slots[slot].moreRecent
        }
        return elements
    }

    private mutating func takeStamp() -> UInt64 {
        defer { nextStamp &+= 1 }
        return nextStamp
    }

    private mutating func linkAsMostRecent(_ slot: Int) {
        let lane = slots[slot].lane
        let head = mostRecent[lane]
        slots[slot].moreRecent = Self.none
        slots[slot].lessRecent = head
        slots[slot].stamp = takeStamp()
        if head == Self.none {
            leastRecent[lane] = slot
        } else {
            slots[head].moreRecent = slot
        }
        mostRecent[lane] = slot
    }

    private mutating func unlink(_ slot: Int) {
        let lane = slots[slot].lane
        let (newer, older) = (slots[slot].moreRecent, slots[slot].lessRecent)
        if newer == Self.none { mostRecent[lane] = older } else { slots[newer].lessRecent = older }
        if older == Self.none { leastRecent[lane] = newer } else { slots[older].moreRecent = newer }
    }
}

extension LRUList: Sendable where Element: Sendable {}
extension LRUList.Slot: Sendable where Element: Sendable {}
