#if canImport(Glibc)
import Glibc
#endif
import Fixtures
import Foundation
import TestSupport
import Testing
@testable import Shared

/// The ring's own file safety: its space is reserved before it is mapped (a store into an unbacked
/// page is SIGBUS, not an error), planted symbolic links are refused rather than followed, a bad
/// file found at start is replaced, and what a killed producer left behind is swept.
@Suite("The live-feed ring's files")
struct RingFileSafetyTests {
    let directory = TemporaryDirectory("ring-files")
    var ringURL: URL { directory.url.appendingPathComponent("live.ring") }

    private func allocatedBytes(_ path: String) -> Int {
        var status = stat()
        guard lstat(path, &status) == 0 else { return -1 }
        return Int(status.st_blocks) * 512
    }

    @Test("a new ring's every byte is allocated on disk before the tunnel writes into it")
    func spaceReserved() throws {
        let producer = try RingBufferProducer(fileURL: ringURL, slotCount: 1 << 12)
        defer { producer.close() }
        let size = try RingGeometry(slotCount: 1 << 12).fileByteCount
        #expect(allocatedBytes(ringURL.path) >= size, "the ring file is sparse: a full disk would be SIGBUS")
    }

    @Test("the reservation's refusal names the size, the directory, the cause and what to do")
    func reservationRefusal() {
        let error = IPCError.cannotReserve(directory: "/x", bytes: RingGeometry.headerByteCount + (8 << 20), errno: ENOSPC)
        #expect(error.description
                == "cannot reserve the live-feed ring's 8.0 MiB in /x: No space left on device (free some space or choose another --data-dir)")
    }

    @Test("a symbolic link planted at the ring's lock is refused, and nothing is created where it points")
    func symlinkedLock() throws {
        let target = directory.url.appendingPathComponent("elsewhere-created-by-root")
        try FileManager.default.createSymbolicLink(atPath: RingLock.path(forRing: ringURL.path), withDestinationPath: target.path)
        #expect(throws: IPCError.symbolicLink(path: RingLock.path(forRing: ringURL.path))) {
            try RingBufferProducer(fileURL: ringURL, slotCount: 8)
        }
        #expect(!FileManager.default.fileExists(atPath: target.path))
        #expect(IPCError.symbolicLink(path: "/d/live.ring.lock").description.contains("is a symbolic link; refusing to follow it"))
    }

    @Test("a symbolic link planted at the ring is refused, and the ring it points to is not touched")
    func symlinkedRing() throws {
        // Another data directory's finished session: a whole ring the link points to.
        let other = TemporaryDirectory("ring-files-other")
        let otherRing = other.url.appendingPathComponent("live.ring")
        try RingBufferProducer(fileURL: otherRing, slotCount: 8).close()
        let before = try Data(contentsOf: otherRing)
        try FileManager.default.createSymbolicLink(atPath: ringURL.path, withDestinationPath: otherRing.path)
        #expect(throws: IPCError.symbolicLink(path: ringURL.path)) {
            try RingBufferProducer(fileURL: ringURL, slotCount: 8)
        }
        #expect(try Data(contentsOf: otherRing) == before, "the producer wrote through the link")
        #expect(throws: IPCError.symbolicLink(path: ringURL.path)) { try RingBufferConsumer(fileURL: ringURL) }
    }

    @Test("temporary rings a killed producer left are removed at the next start, and named for the report")
    func leftoversSwept() throws {
        try RingBufferProducer(fileURL: ringURL, slotCount: 8).close()
        for pid in [99_999, 12] {
            try Data(count: 4096).write(to: URL(fileURLWithPath: RingLeftovers.temporaryPath(forRing: ringURL.path, pid: Int32(pid))))
        }
        let unrelated = directory.url.appendingPathComponent("live.ring.new")
        try Data("keep".utf8).write(to: unrelated)
        let producer = try RingBufferProducer(fileURL: ringURL, slotCount: 8)
        defer { producer.close() }
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: directory.url.path))
        #expect(names == ["live.ring", "live.ring.lock", "live.ring.new"])
        #expect(producer.sweptLeftovers == ["live.ring.new-12", "live.ring.new-99999"])
    }

    @Test("while a producer is live, a second one is refused and sweeps nothing")
    func noSweepUnderALiveProducer() throws {
        let live = try RingBufferProducer(fileURL: ringURL, slotCount: 8)
        defer { live.close() }
        let leftover = RingLeftovers.temporaryPath(forRing: ringURL.path, pid: 424_242)
        try Data(count: 64).write(to: URL(fileURLWithPath: leftover))
        #expect(throws: IPCError.ringInUse(path: ringURL.path)) { try RingBufferProducer(fileURL: ringURL, slotCount: 8) }
        #expect(FileManager.default.fileExists(atPath: leftover))
    }

    @Test("only the ring's own temporary names are leftovers", arguments: [
        (["live.ring.new-1", "live.ring", "live.ring.lock", "live.ring.new-", "other.new-3", "live.ring.new-20"],
         ["live.ring.new-1", "live.ring.new-20"]),
        ([], []),
    ])
    func leftoverNames(names: [String], expected: [String]) {
        #expect(RingLeftovers.leftovers(among: names, ringName: "live.ring") == expected)
    }

    @Test("a ring file found short, corrupt, sparse or not a file at all is replaced by a whole new ring", arguments: [
        "short", "corrupt", "sparse", "directory",
    ])
    func badPreviousReplaced(kind: String) throws {
        let size = try RingGeometry(slotCount: 8).fileByteCount
        switch kind {
        case "short": try Data([0x31, 0x52]).write(to: ringURL)
        case "corrupt": try Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(to: ringURL)
        case "sparse":
            // A whole header, then holes: what the old builds left on a disk that filled.
            try RingBufferProducer(fileURL: ringURL, slotCount: 8).close()
            let header = try Data(contentsOf: ringURL).prefix(RingGeometry.headerByteCount)
            try header.write(to: ringURL)
            #expect(truncate(ringURL.path, off_t(size)) == 0)
        default: try FileManager.default.createDirectory(at: ringURL, withIntermediateDirectories: false)
        }
        if kind == "directory" {
            // A directory cannot be renamed over: refused with the reason, never a crash.
            #expect(throws: IPCError.self) { try RingBufferProducer(fileURL: ringURL, slotCount: 8) }
            return
        }
        let producer = try RingBufferProducer(fileURL: ringURL, slotCount: 8)
        defer { producer.close() }
        #expect(allocatedBytes(ringURL.path) >= size)
        let consumer = try RingBufferConsumer(fileURL: ringURL)
        #expect(producer.push(RingProbe.record(5)))
        #expect(consumer.drain(max: 4).map(\.timestamp) == [5])
    }
}
