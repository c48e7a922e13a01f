#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Posix
import TestSupport
import Testing

/// The event loop for real: epoll on its own thread, pipes, the eventfd wakeup and the timerfd.
@Suite("EventLoop", .serialized)
struct EventLoopTests {
    @Test("a handler runs on the loop thread when its pipe becomes readable, and not after unregister")
    func pipeReadable() throws {
        let running = try RunningLoop()
        defer { running.finish() }
        let (reader, writer) = try Self.nonBlockingPipe()
        defer { [reader, writer].forEach { _ = close($0) } }
        let seen = Recorder<String>()
        let loop = running.loop
        try running.sync { () throws(EventLoopError) in
            try loop.register(reader, interest: .read) { readiness in
                seen.append("\(readiness.contains(.readable)) \(loop.inEventLoop) \(Self.readText(reader))")
            }
        }
        #expect(write(writer, "ping", 4) == 4)
        #expect(seen.wait(for: 1) == ["true true ping"])

        try running.sync { () throws(EventLoopError) in try loop.unregister(reader) }
        #expect(write(writer, "late", 4) == 4)
        running.sync { }   // one more turn of the loop
        #expect(seen.values == ["true true ping"])
    }

    @Test("closures queued with execute from other threads run on the loop thread, each thread's in order")
    func execute() throws {
        let running = try RunningLoop()
        defer { running.finish() }
        let seen = Recorder<(thread: Int, index: Int, onLoop: Bool)>()
        let loop = running.loop
        for thread in 0..<2 {
            Thread.detachNewThread {
                for index in 0..<200 { loop.execute { seen.append((thread, index, loop.inEventLoop)) } }
            }
        }
        let values = seen.wait(for: 400)
        #expect(values.count == 400)
        let allOnLoop = values.allSatisfy { $0.onLoop }
        #expect(allOnLoop)
        for thread in 0..<2 {
            #expect(values.filter { $0.thread == thread }.map(\.index) == Array(0..<200))
        }
        #expect(!loop.inEventLoop)
    }

    @Test("timers fire in deadline order and a cancelled one never fires")
    func timers() throws {
        let running = try RunningLoop()
        defer { running.finish() }
        let fired = Recorder<String>()
        let loop = running.loop
        running.sync {
            loop.schedule(after: .milliseconds(60)) { fired.append("c") }
            loop.schedule(after: .milliseconds(20)) { fired.append("a") }
            let cancelled = loop.schedule(after: .milliseconds(30)) { fired.append("cancelled") }
            loop.schedule(after: .milliseconds(40)) { fired.append("b") }
            loop.cancel(cancelled)
            // A timer due in the same turn as its canceller is still cancelled.
            let late = loop.schedule(after: .milliseconds(61)) { fired.append("late") }
            loop.schedule(after: .milliseconds(60)) { loop.cancel(late) }
            // Due after every other: once it fires, whatever was still to fire has.
            loop.schedule(after: .milliseconds(90)) { fired.append("last") }
        }
        #expect(fired.wait(for: 4) == ["a", "b", "c", "last"])
    }

    /// Up to 16 bytes read from `descriptor`, as text.
    static func readText(_ descriptor: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = read(descriptor, &buffer, buffer.count)
        return String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
    }

    /// A pipe whose read end does not block.
    static func nonBlockingPipe() throws -> (reader: Int32, writer: Int32) {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        try #require(fcntl(ends[0], F_SETFL, O_NONBLOCK) == 0)
        return (ends[0], ends[1])
    }

    @Test("a busy-polling loop still serves readiness, queued work and timers, then sleeps and wakes")
    func busyPoll() throws {
        let running = try RunningLoop(busyPoll: .microseconds(200))
        defer { running.finish() }
        let (reader, writer) = try Self.nonBlockingPipe()
        defer { [reader, writer].forEach { _ = close($0) } }
        let seen = Recorder<String>()
        let loop = running.loop
        let loopThread = Recorder<pid_t>()
        try running.sync { () throws(EventLoopError) in
            loopThread.append(KernelThread.currentID)
            try loop.register(reader, interest: .read) { _ in seen.append(Self.readText(reader)) }
            loop.schedule(after: .milliseconds(20)) { seen.append("timer") }
        }
        #expect(write(writer, "one", 3) == 3)                 // inside the polling window
        #expect(seen.wait(for: 1) == ["one"])
        #expect(seen.wait(for: 2) == ["one", "timer"])
        let thread = try #require(loopThread.values.first)
        #expect(KernelThread.waitUntilBlocked(thread, in: "epoll"), "past the window the loop never slept in epoll")
        #expect(write(writer, "two", 3) == 3)
        #expect(seen.wait(for: 3) == ["one", "timer", "two"])
    }

    @Test("stop ends run, and a stop before run ends the next run after one turn")
    func stop() throws {
        let running = try RunningLoop()
        #expect(running.finish())
        #expect(running.failure == nil)

        let loop = try EventLoop()
        loop.stop()
        try loop.run()
    }

    @Test("watching a regular file is refused with a reason")
    func regularFile() throws {
        let loop = try EventLoop()
        let file = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)
        defer { close(file) }
        #expect(throws: EventLoopError.controlFailed(.register, descriptor: file, errno: EPERM)) {
            try loop.register(file, interest: .read) { _ in }
        }
        #expect(throws: EventLoopError.controlFailed(.unregister, descriptor: file, errno: ENOENT)) {
            try loop.unregister(file)
        }
        #expect(EventLoopError.setupFailed(call: "eventfd", errno: EMFILE).description.contains("ulimit -n"))
    }
}

/// An event loop running on a thread of its own, for tests.
final class RunningLoop: @unchecked Sendable {
    let loop: EventLoop
    private let ended = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var error: EventLoopError?
    private var finished = false

    init(busyPoll: Duration = .zero) throws {
        loop = try EventLoop(busyPoll: busyPoll)
        Thread.detachNewThread { [self] in
            do throws(EventLoopError) {
                try loop.run()
            } catch {
                lock.lock()
                self.error = error
                lock.unlock()
            }
            ended.signal()
        }
    }

    /// What ended `run` other than `stop`.
    var failure: EventLoopError? {
        lock.lock()
        defer { lock.unlock() }
        return error
    }

    /// Runs `body` on the loop thread and waits for it (five seconds at most).
    func sync<E: Error>(_ body: @escaping () throws(E) -> Void) throws(E) {
        let done = DispatchSemaphore(value: 0)
        let outcome = Recorder<E?>()
        let work = UncheckedBox(body)
        loop.execute {
            do throws(E) { try work.value(); outcome.append(nil) } catch { outcome.append(error) }
            done.signal()
        }
        guard done.wait(timeout: .now() + 5) == .success else {
            Issue.record("the loop did not run the closure within five seconds")
            return
        }
        if let error = outcome.values.first ?? nil { throw error }
    }

    /// Stops the loop and waits for `run` to return; true when it did.
    @discardableResult
    func finish() -> Bool {
        lock.lock()
        let already = finished
        finished = true
        lock.unlock()
        if already { return true }
        loop.stop()
        return ended.wait(timeout: .now() + 5) == .success
    }
}

/// Hands a closure that will run only on the loop thread to `execute`.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Collects values from any thread; the test thread waits for them.
final class Recorder<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private var stored: [Value] = []

    func append(_ value: Value) {
        condition.lock()
        stored.append(value)
        condition.broadcast()
        condition.unlock()
    }

    var values: [Value] {
        condition.lock()
        defer { condition.unlock() }
        return stored
    }

    /// Waits until `count` values are in (five seconds at most) and returns them all.
    func wait(for count: Int, seconds: Double = 5) -> [Value] {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while stored.count < count && condition.wait(until: deadline) {}
        return stored
    }
}
