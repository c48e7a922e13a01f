import Posix
import Testing

/// The loop's deadline bookkeeping, with no clock: `now` is whatever the test says.
@Suite("TimerQueue")
struct TimerQueueTests {
    @Test("due timers come out in deadline order, and equal deadlines in schedule order")
    func order() {
        var queue = TimerQueue<String>()
        _ = queue.schedule(at: .milliseconds(30), "c")
        _ = queue.schedule(at: .milliseconds(10), "a")
        _ = queue.schedule(at: .milliseconds(20), "b1")
        _ = queue.schedule(at: .milliseconds(20), "b2")
        #expect(queue.nextDeadline == .milliseconds(10))
        var fired: [String] = []
        while let payload = queue.popDue(now: .milliseconds(30)) { fired.append(payload) }
        #expect(fired == ["a", "b1", "b2", "c"])
        #expect(queue.nextDeadline == nil)
        #expect(queue.count == 0)
    }

    @Test("nothing is due before its deadline, and a deadline equal to now is due")
    func notYet() {
        var queue = TimerQueue<Int>()
        _ = queue.schedule(at: .seconds(5), 1)
        let early = queue.popDue(now: .seconds(4))
        let onTime = queue.popDue(now: .seconds(5))
        #expect(early == nil && onTime == 1)
    }

    @Test("a cancelled timer is never returned, and cancelling twice or after firing says false")
    func cancel() {
        var queue = TimerQueue<String>()
        let first = queue.schedule(at: .milliseconds(1), "first")
        let second = queue.schedule(at: .milliseconds(2), "second")
        let cancelled = queue.cancel(first)
        let cancelledAgain = queue.cancel(first)
        #expect(cancelled && !cancelledAgain)
        #expect(queue.nextDeadline == .milliseconds(2))
        let due = queue.popDue(now: .seconds(1))
        let cancelledAfterFiring = queue.cancel(second)
        let dueAfter = queue.popDue(now: .seconds(1))
        #expect(due == "second" && !cancelledAfterFiring && dueAfter == nil)
    }

    @Test("many cancellations keep the order of the rest and shrink the heap")
    func manyCancellations() {
        var queue = TimerQueue<Int>()
        // Scheduled in a scrambled order so the heap really sorts.
        let ids = (0..<500).map { index in ((index * 7919) % 500, queue.schedule(at: .milliseconds((index * 7919) % 500), (index * 7919) % 500)) }
        for (value, id) in ids where value % 3 != 0 { queue.cancel(id) }
        #expect(queue.count == 167)
        var fired: [Int] = []
        while let value = queue.popDue(now: .seconds(1)) { fired.append(value) }
        #expect(fired == Array(stride(from: 0, to: 500, by: 3)))
    }
}
