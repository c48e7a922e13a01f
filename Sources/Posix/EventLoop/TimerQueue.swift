/// Names one scheduled timer, so it can be cancelled. Never reused within a queue.
package struct TimerID: Hashable, Sendable {
    let value: UInt64
}

/// The event loop's deadlines, as a value with no clock and no I/O: the loop passes `now` in and
/// arms its one timerfd at `nextDeadline`. Deadlines are durations since the loop's monotonic
/// clock's origin.
///
/// A binary min-heap ordered by (deadline, schedule order), so timers with equal deadlines fire in
/// the order they were scheduled. Cancelling is cheap: the payload leaves `pending` and its heap
/// entry is dropped when it surfaces (the top is always live) — the relay cancels idle timers far more often than they
/// fire. When skipped entries outnumber live ones the heap is rebuilt, so it stays within twice
/// the live count.
package struct TimerQueue<Payload> {
    private struct Entry {
        let deadline: Duration
        let id: TimerID

        func precedes(_ other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : id.value < other.id.value
        }
    }

    private var heap: [Entry] = []
    private var pending: [TimerID: Payload] = [:]
    private var nextID: UInt64 = 0

    package init() {}

    /// How many timers are scheduled and not yet fired or cancelled.
    package var count: Int { pending.count }

    /// When the earliest live timer is due, or nil when none is scheduled.
    package var nextDeadline: Duration? { heap.first?.deadline }

    package mutating func schedule(at deadline: Duration, _ payload: Payload) -> TimerID {
        let id = TimerID(value: nextID)
        nextID += 1
        pending[id] = payload
        heap.append(Entry(deadline: deadline, id: id))
        siftUp(heap.count - 1)
        return id
    }

    /// Forgets a timer; its payload is never returned. Returns false when it already fired or was
    /// cancelled, which is no error: a flow's timer may fire in the same turn the flow closes.
    @discardableResult
    package mutating func cancel(_ id: TimerID) -> Bool {
        guard pending.removeValue(forKey: id) != nil else { return false }
        if heap.count > 32 && heap.count > 2 * pending.count { rebuild() } else { dropCancelledTop() }
        return true
    }

    /// Removes and returns the earliest timer due at `now` (deadline ≤ now), or nil. One at a
    /// time, so a handler that cancels a timer due in the same turn still prevents it.
    package mutating func popDue(now: Duration) -> Payload? {
        guard let first = heap.first, first.deadline <= now else { return nil }
        removeTop()
        dropCancelledTop()
        return pending.removeValue(forKey: first.id)
    }

    /// Keeps the invariant that the top entry is a live timer.
    private mutating func dropCancelledTop() {
        while let first = heap.first, pending[first.id] == nil { removeTop() }
    }

    private mutating func removeTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(0)
    }

    private mutating func rebuild() {
        heap.removeAll { pending[$0.id] == nil }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            var smallest = parent
            let left = 2 * parent + 1, right = left + 1
            if left < heap.count && heap[left].precedes(heap[smallest]) { smallest = left }
            if right < heap.count && heap[right].precedes(heap[smallest]) { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
