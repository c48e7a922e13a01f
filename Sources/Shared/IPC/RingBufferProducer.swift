#if canImport(Glibc)
import Glibc
#endif
import CTunnelVision
import Foundation

/// The tunnel's end of the live feed (ipc spec): pushes fixed-size records into the shared ring
/// without a syscall, an allocation or a lock, and drops — counting — when the ring is full. It
/// never overwrites an unread slot and never blocks the packet loop.
///
/// Each session gets a fresh file: it is built beside the ring under a temporary name and renamed
/// over the old one, so a consumer opening the path only ever sees a whole ring; the previous
/// file is then marked superseded, which tells a consumer still mapped to it to drain what is
/// left and reattach. The generation (previous + 1) numbers the sessions.
///
/// `@unchecked Sendable`: one thread uses an instance at a time (single producer); it is marked so
/// only so it can be handed to that thread. The coordination is the shared atomics, not the class.
package final class RingBufferProducer: @unchecked Sendable {
    private var mapping: RingMapping?
    /// The mapping's header and first slot, held as plain pointers so a push touches no
    /// reference count; nil once closed.
    private var header: UnsafeMutableRawPointer?
    private let slots: UnsafeMutableRawPointer
    private let slotMask: UInt64
    private let slotSize: Int
    private let slotCount: UInt64
    /// The producer owns `head`; it keeps its own copy rather than reading it back.
    private var head: UInt64 = 0
    /// The last `tail` seen; reloaded only when the ring looks full, so the consumer's cache line
    /// is not pulled on every push.
    private var knownTail: UInt64 = 0

    package let generation: UInt64
    package let path: String
    /// The temporary rings an unclean stop left beside this one, removed as this session began
    /// (file names, in name order): what `run` reports as recovered.
    package let sweptLeftovers: [String]

    /// The tunnel's ring in its data directory (created 0700 if missing).
    package convenience init(dataDirectory: URL, slotCount: Int = RingGeometry.defaultSlotCount,
                            slotSize: Int = PackedPacketMeta.packedByteCount) throws(IPCError) {
        do {
            try PrivateDirectory.create(dataDirectory)
        } catch {
            throw .dataDirectoryUnavailable(path: error.path, errno: error.errno)
        }
        try self.init(fileURL: DataDirectoryLayout.ring(in: dataDirectory), slotCount: slotCount, slotSize: slotSize)
    }

    /// Takes the previous session's liveness lock, retrying for a quarter of a second: a process
    /// forking another program holds a copy of every descriptor between its fork and the exec
    /// that closes them, so a lock can look held for an instant after its producer let go.
    private static func lockSoon(_ descriptor: Int32) -> Bool {
        for attempt in 0..<50 {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
            if attempt < 49 { usleep(5_000) }
        }
        return false
    }

    package init(fileURL: URL, slotCount: Int, slotSize: Int = PackedPacketMeta.packedByteCount) throws(IPCError) {
        let geometry = try RingGeometry(slotCount: slotCount, slotSize: slotSize)
        let path = fileURL.path
        let lock = try RingLock.exclusive(forRing: path)
        defer { lock.release() }

        // A readable previous ring gives the generation to continue from; an unreadable one is
        // just replaced (it is live data of a finished session, not history) — but a symbolic
        // link is refused, not replaced: someone planted it.
        let previous: RingMapping?
        do {
            previous = try RingMapping.open(path: path)
        } catch {
            if case .symbolicLink = error { throw error }
            previous = nil
        }
        if let previous, !Self.lockSoon(previous.descriptor) {
            throw .ringInUse(path: path)
        }
        let generation = (previous?.generation ?? 0) &+ 1

        // No producer is live, and the lock keeps any other from starting: every temporary ring
        // here is a killed producer's.
        sweptLeftovers = Self.sweepLeftovers(beside: fileURL)
        let temporary = RingLeftovers.temporaryPath(forRing: path, pid: getpid())
        var previousRing = previous
        let mapping: RingMapping
        do {
            mapping = try RingMapping.create(path: temporary, geometry: geometry, generation: generation)
        } catch {
            // On a full disk the finished session's ring is given up for this one's: it is live
            // data nobody can still be sent, and its reader is told to move on.
            guard case let .cannotReserve(_, _, code) = error, code == ENOSPC || code == EDQUOT,
                  let previous else {
                previous?.unmap()
                throw error
            }
            Self.supersede(previous)
            previousRing = nil
            unlink(path)
            mapping = try RingMapping.create(path: temporary, geometry: geometry, generation: generation)
        }
        // Held for the whole session: it is how the next producer knows this one is alive.
        flock(mapping.descriptor, LOCK_EX)
        guard rename(temporary, path) == 0 else {
            let failure = errno
            mapping.unmap()
            previousRing?.unmap()
            unlink(temporary)
            throw .openFailed(path: path, errno: failure)
        }
        if let previousRing { Self.supersede(previousRing) }

        self.mapping = mapping
        header = mapping.header
        slots = mapping.slots
        self.path = path
        self.generation = generation
        self.slotCount = UInt64(geometry.slotCount)
        slotMask = UInt64(geometry.slotCount - 1)
        self.slotSize = geometry.slotSize
    }

    /// Tells a reader still mapped to `previous` that a newer session replaced it, and unmaps it.
    private static func supersede(_ previous: RingMapping) {
        ctv_ring_store_state_release(previous.header, RingFileState.superseded.rawValue)
        ctv_ring_notify(previous.header)
        previous.unmap()
    }

    /// Removes the temporary rings beside `ring` and returns their names. Unlinking removes a
    /// link itself, never what it points to.
    private static func sweepLeftovers(beside ring: URL) -> [String] {
        let directory = ring.deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return RingLeftovers.leftovers(among: names, ringName: ring.lastPathComponent).filter { name in
            unlink(directory.appendingPathComponent(name).path) == 0
        }
    }

    /// Writes one record, or counts it in `dropped` when the consumer has not freed a slot.
    /// Returns whether it was written. After `close()` nothing is written or counted.
    @discardableResult
    package func push(_ record: PackedPacketMeta) -> Bool {
        guard let header else { return false }
        if head &- knownTail >= slotCount {
            knownTail = ctv_ring_load_tail_acquire(header)
            if head &- knownTail >= slotCount {
                ctv_ring_add_dropped(header, 1)
                return false
            }
        }
        record.store(to: slots + Int(head & slotMask) * slotSize)
        head &+= 1
        ctv_ring_store_head_release(header, head)
        return true
    }

    @discardableResult
    package func push(_ meta: PacketMeta) -> Bool { push(PackedPacketMeta(meta)) }

    /// Whether the next push would be written rather than dropped. For tools and tests that must
    /// not lose records; the tunnel never waits for space.
    package func hasFreeSlot() -> Bool {
        guard let header else { return false }
        if head &- knownTail < slotCount { return true }
        knownTail = ctv_ring_load_tail_acquire(header)
        return head &- knownTail < slotCount
    }

    /// Wakes a waiting consumer; call once after a batch of pushes. Costs one atomic add when
    /// nobody waits, so calling it per batch never becomes a per-packet syscall.
    package func notifyConsumer() {
        guard let header else { return }
        ctv_ring_notify(header)
    }

    package func droppedCount() -> UInt64 {
        guard let header else { return 0 }
        return ctv_ring_load_dropped(header)
    }

    /// Marks the session ended, wakes the consumer, unmaps and closes. The file stays, so the
    /// consumer can drain what is left; the next session supersedes it.
    package func close() {
        guard let mapping else { return }
        ctv_ring_store_state_release(mapping.header, RingFileState.closed.rawValue)
        ctv_ring_notify(mapping.header)
        mapping.unmap()
        self.mapping = nil
        header = nil
    }

    deinit { close() }
}
