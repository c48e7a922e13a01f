import Fixtures
import Testing
import Shared
@testable import PacketTunnel

@Suite struct LRUListTests {
    @Test func elementsLeaveLeastRecentFirstAndATouchMakesOneMostRecent() {
        var list = LRUList<String>(lanes: 1, vacant: "")
        let slots = ["a", "b", "c"].map { list.pushMostRecent($0, lane: 0) }
        list.touch(slots[0])
        #expect(list.elementsFromLeastRecent(inLane: 0) == ["b", "c", "a"])
        list.touch(slots[0])
        #expect(list.popLeastRecent() == "b")
        #expect(list.popLeastRecent() == "c")
        #expect(list.popLeastRecent() == "a")
        #expect(list.popLeastRecent() == nil && list.count == 0)
    }

    @Test func removingFromTheMiddleHeadOrTailKeepsTheRestLinked() {
        var list = LRUList<Int>(lanes: 1, vacant: 0)
        let slots = (0..<5).map { list.pushMostRecent($0, lane: 0) }
        #expect(list.remove(slots[2]) == 2)
        #expect(list.remove(slots[4]) == 4)
        #expect(list.remove(slots[0]) == 0)
        #expect(list.elementsFromLeastRecent(inLane: 0) == [1, 3])
        #expect(list.leastRecent(inLane: 0) == slots[1] && list.count == 2)
    }

    @Test func aFreedSlotIsReusedBeforeTheArenaGrows() {
        var list = LRUList<Int>(lanes: 1, vacant: 0)
        let first = list.pushMostRecent(1, lane: 0)
        _ = list.pushMostRecent(2, lane: 0)
        list.remove(first)
        #expect(list.pushMostRecent(3, lane: 0) == first)
        #expect(list.slotCapacity == 2)
        for round in 0..<100 {
            let slot = list.pushMostRecent(round, lane: 0)
            list.remove(slot)
        }
        #expect(list.slotCapacity == 3)
    }

    /// A free slot holds the vacant element, so what a flow owned is freed when it leaves, not
    /// when its slot is reused.
    @Test func aRemovedElementIsReleasedNotKeptInItsFreeSlot() {
        final class Held {}
        var list = LRUList<Held?>(lanes: 1, vacant: nil)
        weak var removed: Held?
        weak var compacted: Held?
        do {
            let first = Held(), second = Held()
            removed = first
            compacted = second
            let slot = list.pushMostRecent(first, lane: 0)
            _ = list.pushMostRecent(second, lane: 0)
            list.remove(slot)
        }
        #expect(removed == nil)
        #expect(compacted != nil)
        _ = list.compact()
        _ = list.popLeastRecent()
        #expect(compacted == nil && list.count == 0)
    }

    @Test func eachLaneKeepsItsOwnOrderAndTheOverallLeastRecentIsTheOldestTail() {
        var list = LRUList<String>(lanes: 2, vacant: "")
        let a = list.pushMostRecent("a", lane: 0)
        let b = list.pushMostRecent("b", lane: 1)
        _ = list.pushMostRecent("c", lane: 0)
        #expect(list.leastRecentOverall == a)
        list.touch(a)
        #expect(list.elementsFromLeastRecent(inLane: 0) == ["c", "a"])
        #expect(list.leastRecentOverall == b && list.lane(of: b) == 1)
        list[b] += "!"
        #expect(list.popLeastRecent() == "b!")
        #expect(list.popLeastRecent() == "c")
    }

    @Test func compactingMovesEveryElementToTheLowestSlotsKeepingEachLanesOrderAndTheOverallRecency() {
        var list = LRUList<Int>(lanes: 2, vacant: 0)
        let slots = (0..<100).map { list.pushMostRecent($0, lane: $0 % 2) }
        for slot in slots where list[slot] % 15 != 0 { list.remove(slot) }
        list.touch(slots[0])                            // 0 becomes lane 0's most recent
        let before = [list.elementsFromLeastRecent(inLane: 0), list.elementsFromLeastRecent(inLane: 1)]
        #expect(before == [[30, 60, 90, 0], [15, 45, 75]] && list.slotCapacity == 100)

        let renumbered = list.compact()

        #expect(list.slotCapacity == 7 && list.count == 7)
        #expect([list.elementsFromLeastRecent(inLane: 0), list.elementsFromLeastRecent(inLane: 1)] == before)
        for element in [0, 15, 90] { #expect(list[renumbered[slots[element]]] == element) }
        #expect(renumbered[slots[3]] == -1, "a slot that was free maps to none")
        #expect(list.popLeastRecent() == 15 && list.popLeastRecent() == 30, "the stamps kept: the least recent across lanes first")
        #expect(list.pushMostRecent(7, lane: 1) < 7 && list.slotCapacity == 7, "a slot freed since is reused")
        #expect(list.pushMostRecent(8, lane: 1) < 7 && list.pushMostRecent(9, lane: 1) == 7, "then the arena grows from its end")
    }

    /// Random pushes, touches, removals and pops against an array that keeps every element in
    /// recency order, the slow obvious way.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func randomOperationsAgreeWithANaiveArray(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let lanes = 3
        var list = LRUList<Int>(lanes: lanes, vacant: 0)
        var reference: [(value: Int, lane: Int, slot: Int)] = []   // least recent first
        for step in 0..<4_000 {
            switch random.next() % 8 {
            case 0...2:
                let lane = Int(random.next() % UInt64(lanes))
                reference.append((step, lane, list.pushMostRecent(step, lane: lane)))
            case 3...4 where !reference.isEmpty:
                let entry = reference.remove(at: Int(random.next() % UInt64(reference.count)))
                list.touch(entry.slot)
                reference.append(entry)
            case 5...6 where !reference.isEmpty:
                let entry = reference.remove(at: Int(random.next() % UInt64(reference.count)))
                #expect(list.remove(entry.slot) == entry.value)
            default:
                #expect(list.popLeastRecent() == (reference.isEmpty ? nil : reference.removeFirst().value))
            }
            #expect(list.count == reference.count)
            #expect(list.leastRecentOverall == reference.first?.slot)
            for lane in 0..<lanes where step % 50 == 0 {
                #expect(list.elementsFromLeastRecent(inLane: lane) == reference.filter { $0.lane == lane }.map(\.value))
                #expect(list.leastRecent(inLane: lane) == reference.first { $0.lane == lane }?.slot)
            }
        }
        #expect(list.slotCapacity <= 4_000)
    }
}
