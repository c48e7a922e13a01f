import Fixtures
import Foundation
import TestSupport
import Testing
@testable import Shared

/// The ring has one reader: a second would take records from the first, and each dashboard would
/// silently show part of the traffic.
@Suite("The live-feed ring's one reader")
struct RingReaderClaimTests {
    let directory = TemporaryDirectory("ring-claim")
    var ringURL: URL { directory.url.appendingPathComponent("live.ring") }

    @Test("a second reader is refused, saying who to stop, and is let in once the first closes")
    func secondReaderRefused() throws {
        let producer = try RingBufferProducer(fileURL: ringURL, slotCount: 64)
        let first = try RingBufferConsumer(fileURL: ringURL)
        #expect(throws: IPCError.readerInUse(path: ringURL.path)) { try RingBufferConsumer(fileURL: ringURL) }
        #expect(IPCError.readerInUse(path: ringURL.path).description.contains("one reader at a time"))
        for index in 0..<10 { #expect(producer.push(RingProbe.record(UInt64(index)))) }
        #expect(first.drain(max: 4).map(\.timestamp) == [0, 1, 2, 3])
        first.close()
        let second = try RingBufferConsumer(fileURL: ringURL)
        #expect(second.drain(max: 100).map(\.timestamp) == Array(4..<10), "what the first left unread is the second's, once")
        producer.close()
    }

    @Test("the claim does not stand in the tunnel's way: a new session is made while a reader holds it, and the reader follows")
    func producerNotBlocked() throws {
        let first = try RingBufferProducer(fileURL: ringURL, slotCount: 64)
        let consumer = try RingBufferConsumer(fileURL: ringURL)
        let generation = consumer.generation
        first.close()
        let next = try RingBufferProducer(fileURL: ringURL, slotCount: 64)   // takes the ring's flock
        #expect(next.push(RingProbe.record(7)))
        #expect(consumer.drain(max: 10).map(\.timestamp) == [7])
        #expect(consumer.generation != generation)
        #expect(throws: IPCError.readerInUse(path: ringURL.path)) { try RingBufferConsumer(fileURL: ringURL) }
        next.close()
    }

    @Test("a reader that dies leaves no claim behind")
    func deadReaderReleases() throws {
        let producer = try RingBufferProducer(fileURL: ringURL, slotCount: 64)
        // Another process takes the same kind of lock on the ring's lock file and is killed.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments = ["-c", """
            import fcntl, os, struct, sys, time
            fd = os.open(sys.argv[1], os.O_RDWR)
            F_OFD_SETLK = 37
            fcntl.fcntl(fd, F_OFD_SETLK, struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 1, 0))
            print("held", flush=True)
            time.sleep(60)
            """, ringURL.path + ".lock"]
        let output = Pipe()
        holder.standardOutput = output
        try holder.run()
        let said = output.fileHandleForReading.availableData
        #expect(String(decoding: said, as: UTF8.self).hasPrefix("held"))
        #expect(throws: IPCError.readerInUse(path: ringURL.path)) { try RingBufferConsumer(fileURL: ringURL) }
        kill(holder.processIdentifier, SIGKILL)   // dies without closing anything itself
        holder.waitUntilExit()
        let consumer = try RingBufferConsumer(fileURL: ringURL)
        consumer.close()
        producer.close()
    }
}
