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
    /// A slot's place in its lane. Kept apart from the elements and trivial, so following and
    /// relinking slots never copies an element: reading a field of a slot that also held the
    /// element copied the whole element out (a flow record, with a retain per string and array).
    fileprivate struct Link {
        /// Neighbours towards the lane's head and tail; `none` at the ends. A free slot chains the
        /// free list through `lessRecent`.
        var moreRecent: Int
        var lessRecent: Int
        var lane: Int
        var stamp: UInt64
        /// The slot holds an element; tested here rather than on the optional, which copies it out.
        var isOccupied = true
    }

    private static var none: Int { -1 }

    private var links: [Link] = []
    /// A free slot holds `vacant`. Not optional: yielding an optional's payload (`elements[slot]!`)
    /// copied the whole element out on every read, where an array element is yielded in place.
    private var elements: [Element] = []
    /// What a free slot holds: an element that owns nothing.
    private let vacant: Element
    private var mostRecent: [Int]
    private var leastRecent: [Int]
    private var firstFree = LRUList.none
    private var nextStamp: UInt64 = 0
    private(set) var count = 0

    init(lanes: Int, vacant: Element) {
        precondition(lanes > 0, "an LRU list needs at least one lane")
        self.vacant = vacant
        mostRecent = Array(repeating: Self.none, count: lanes)
        leastRecent = mostRecent
    }

    var laneCount: Int { mostRecent.count }
    /// Slots ever allocated, free ones included: the arena's high-water mark.
    var slotCapacity: Int { links.count }

    /// Both accessors work in place: a field is read, or changed, without copying the element.
    subscript(slot: Int) -> Element {
        _read {
            precondition(links[slot].isOccupied, "slot \(slot) is free")
            yield elements[slot]
        }
        _modify {
            precondition(links[slot].isOccupied, "slot \(slot) is free")
            yield &elements[slot]
        }
    }

    func lane(of slot: Int) -> Int { links[slot].lane }

    /// Whether `slot` holds an element now (a slot past the arena's end holds none).
    func isOccupied(_ slot: Int) -> Bool { slot < links.count && links[slot].isOccupied }

    /// The slot's recency among all lanes: a larger stamp is more recent.
    func stamp(of slot: Int) -> UInt64 { links[slot].stamp }

    /// Moves the element at `slot` to `lane` as its most recent; the slot stays the same.
    mutating func move(_ slot: Int, toLane lane: Int) {
        precondition(links[slot].isOccupied, "slot \(slot) is free")
        unlink(slot)
        links[slot].lane = lane
        linkAsMostRecent(slot)
    }

    /// Adds `element` as the most recent of `lane`, reusing a freed slot when there is one.
    mutating func pushMostRecent(_ element: Element, lane: Int) -> Int {
        let slot: Int
        let fresh = Link(moreRecent: Self.none, lessRecent: Self.none, lane: lane, stamp: 0)
        if firstFree != Self.none {
            slot = firstFree
            firstFree = links[slot].lessRecent
            links[slot] = fresh
            elements[slot] = element
        } else {
            slot = links.count
            links.append(fresh)
            elements.append(element)
        }
        count += 1
        linkAsMostRecent(slot)
        return slot
    }

    /// Moves every element into the lowest slots, each lane in its order and with its stamp, and
    /// gives back the room of the freed slots; returns each old slot's new one (`none`, -1, for a
    /// slot that was free). Every slot index held outside is stale afterwards: only an owner that
    /// renumbers what it holds (`FlowTable.releaseUnusedCapacity`) may call it.
    mutating func compact() -> [Int] {
        var renumbered = Array(repeating: Self.none, count: links.count)
        var compactLinks: [Link] = []
        compactLinks.reserveCapacity(count)
        var compactElements: [Element] = []
        compactElements.reserveCapacity(count)
        for lane in 0..<laneCount {
            var slot = mostRecent[lane]
            var previous = Self.none
            mostRecent[lane] = Self.none
            while slot != Self.none {
                let placed = compactLinks.count
                renumbered[slot] = placed
                compactLinks.append(Link(moreRecent: previous, lessRecent: Self.none, lane: lane, stamp: links[slot].stamp))
                compactElements.append(take(slot))
                if previous == Self.none { mostRecent[lane] = placed } else { compactLinks[previous].lessRecent = placed }
                previous = placed
                slot = links[slot].lessRecent
            }
            leastRecent[lane] = previous
        }
        links = compactLinks
        elements = compactElements
        firstFree = Self.none
        return renumbered
    }

    /// Makes the element at `slot` the most recent of its lane.
    mutating func touch(_ slot: Int) {
        precondition(links[slot].isOccupied, "slot \(slot) is free")
        if mostRecent[links[slot].lane] == slot {
            links[slot].stamp = takeStamp()
            return
        }
        unlink(slot)
        linkAsMostRecent(slot)
    }

    /// Takes the element out and frees its slot for the next push.
    @discardableResult
    mutating func remove(_ slot: Int) -> Element {
        precondition(links[slot].isOccupied, "slot \(slot) is free")
        unlink(slot)
        let element = take(slot)
        links[slot].isOccupied = false
        links[slot].lessRecent = firstFree
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
            if oldest.map({ links[slot].stamp < links[$0].stamp }) ?? true { oldest = slot }
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
            elements.append(self.elements[slot])
            slot = links[slot].moreRecent
        }
        return elements
    }

    /// Moves the element out of `slot`, leaving `vacant` there.
    private mutating func take(_ slot: Int) -> Element {
        var element = vacant
        swap(&element, &elements[slot])
        return element
    }

    private mutating func takeStamp() -> UInt64 {
        defer { nextStamp &+= 1 }
        return nextStamp
    }

    private mutating func linkAsMostRecent(_ slot: Int) {
        let lane = links[slot].lane
        let head = mostRecent[lane]
        links[slot].moreRecent = Self.none
        links[slot].lessRecent = head
        links[slot].stamp = takeStamp()
        if head == Self.none {
            leastRecent[lane] = slot
        } else {
            links[head].moreRecent = slot
        }
        mostRecent[lane] = slot
    }

    private mutating func unlink(_ slot: Int) {
        let lane = links[slot].lane
        let (newer, older) = (links[slot].moreRecent, links[slot].lessRecent)
        if newer == Self.none { mostRecent[lane] = older } else { links[newer].lessRecent = older }
        if older == Self.none { leastRecent[lane] = newer } else { links[older].moreRecent = newer }
    }
}

extension LRUList: Sendable where Element: Sendable {}
extension LRUList.Link: Sendable {}
