#if canImport(Glibc)
import Glibc
#endif
import CTunnelVision
import Foundation

/// The reader's end of the live feed (ipc spec): drains records in order without blocking, reads
/// the geometry from the header, and follows the tunnel from one session to the next.
///
/// The hole the spec left open — a consumer mapped to the previous session's file stays silently
/// alive — is closed here: when the producer of a new session replaces the file it marks the old
/// one superseded, and `drain` empties the old ring first, then reattaches to the new one, so
/// nothing is lost or read twice across the switch.
///
/// `@unchecked Sendable`: one thread uses an instance at a time (single consumer).
package final class RingBufferConsumer: @unchecked Sendable {
    private var mapping: RingMapping?
    /// The current mapping's header and geometry as plain values, so a drain touches no
    /// reference count; `header` is nil once closed.
    private var header: UnsafeMutableRawPointer?
    private var slots: UnsafeRawPointer?
    private var slotMask: UInt64 = 0
    private var slotSize = 0
    private var tail: UInt64 = 0
    /// The last `head` seen; reloaded only when it promises fewer records than asked for.
    private var knownHead: UInt64 = 0
    package let path: String
    /// This consumer's claim to be the ring's one reader, held until `close`.
    private var claim: RingReaderClaim?
    /// Sessions this consumer moved to after the one it opened.
    package private(set) var reattachCount = 0

    /// The tunnel's ring in a data directory. A reader creates nothing.
    package convenience init(dataDirectory: URL) throws(IPCError) {
        try self.init(fileURL: DataDirectoryLayout.ring(in: dataDirectory))
    }

    /// Opens an existing ring; its geometry comes from its header (`badHeader` if not ours).
    /// `readerInUse` when another consumer reads it.
    package init(fileURL: URL) throws(IPCError) {
        path = fileURL.path
        let mapping = try Self.open(path)
        do {
            claim = try RingReaderClaim.take(forRing: path)
        } catch {
            mapping.unmap()
            throw error
        }
        attach(mapping)
    }

    private static func open(_ path: String) throws(IPCError) -> RingMapping {
        let lock = RingLock.shared(forRing: path)
        defer { lock?.release() }
        return try RingMapping.open(path: path)
    }

    private func attach(_ mapping: RingMapping) {
        self.mapping?.unmap()
        self.mapping = mapping
        header = mapping.header
        slots = UnsafeRawPointer(mapping.slots)
        slotMask = UInt64(mapping.geometry.slotCount - 1)
        slotSize = mapping.geometry.slotSize
        // Whatever a previous reader left unread belongs to this reader now.
        tail = ctv_ring_load_tail_acquire(mapping.header)
        knownHead = tail
    }

    /// The session of the file this consumer reads now.
    package var generation: UInt64 { mapping?.generation ?? 0 }
    package var slotCount: Int { mapping?.geometry.slotCount ?? 0 }
    package var sessionState: RingFileState { mapping?.state ?? .closed }

    /// Records the producer refused in the current session because the ring was full.
    package func droppedCount() -> UInt64 {
        guard let mapping else { return 0 }
        return ctv_ring_load_dropped(mapping.header)
    }

    /// Up to `max` waiting records, oldest first. Never blocks.
    package func drain(max: Int) -> [PackedPacketMeta] {
        var records: [PackedPacketMeta] = []
        records.reserveCapacity(Swift.min(max, slotCount))
        drain(into: &records, max: max)
        return records
    }

    /// Appends up to `max` waiting records to `records` and returns how many; reusing one array
    /// keeps a steady reader free of allocation.
    @discardableResult
    package func drain(into records: inout [PackedPacketMeta], max: Int) -> Int {
        var taken = 0
        while taken < max, let header {
            taken += drainCurrent(header, into: &records, max: max - taken)
            guard taken < max, ctv_ring_load_state_acquire(header) == RingFileState.superseded.rawValue else { break }
            // The old session's producer is gone; re-read head once more, since its last records
            // may have landed after our look, and move on only when the file is empty.
            if ctv_ring_load_head_acquire(header) != tail { continue }
            guard (try? reattach()) == true else { break }
        }
        return taken
    }

    private func drainCurrent(_ header: UnsafeMutableRawPointer, into records: inout [PackedPacketMeta], max: Int) -> Int {
        if knownHead &- tail < UInt64(max) { knownHead = ctv_ring_load_head_acquire(header) }
        let count = Swift.min(Int(clamping: knownHead &- tail), max)
        guard count > 0, let slots else { return 0 }
        // One append of a counted sequence: the array grows once and is filled in place,
        // instead of checking capacity and uniqueness record by record.
        let (first, mask, size) = (tail, slotMask, slotSize)
        records.append(contentsOf: (0..<UInt64(count)).lazy.map { index in
            PackedPacketMeta.load(from: slots + Int((first &+ index) & mask) * size)
        })
        tail &+= UInt64(count)
        ctv_ring_store_tail_release(header, tail)
        return count
    }

    /// Moves to the file the path names now, if it is another session's. Returns whether it
    /// moved. Unread records of the current file are abandoned, so `drain` calls this only once
    /// the file is empty; callers use it when they know the old session is gone.
    @discardableResult
    package func reattach() throws(IPCError) -> Bool {
        if let mapping, mapping.pathStillNamesThisFile() { return false }
        let fresh = try Self.open(path)
        if let mapping, fresh.generation == mapping.generation, fresh.inode == mapping.inode { return false }
        attach(fresh)
        reattachCount += 1
        return true
    }

    /// Blocks until records are waiting, the session changes, or `timeout` passes; the reader
    /// should still drain once a second on its own, which `timeout` gives it.
    package func wait(timeout: Duration) -> RingWaitOutcome {
        guard let mapping else { return .closed }
        let sequence = ctv_ring_wake_sequence(mapping.header)
        if tail != ctv_ring_load_head_acquire(mapping.header) { return .recordsAvailable }
        if mapping.state == .superseded { return .sessionChanged }
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Swift.max(0, seconds) * 1_000_000_000 + Swift.max(0, attoseconds) / 1_000_000_000
        ctv_ring_wait(mapping.header, sequence, nanoseconds)
        if tail != ctv_ring_load_head_acquire(mapping.header) { return .recordsAvailable }
        if mapping.state == .superseded { return .sessionChanged }
        return .timedOut
    }

    /// Unmaps and closes; later drains return nothing.
    package func close() {
        claim?.release()
        claim = nil
        mapping?.unmap()
        mapping = nil
        header = nil
        slots = nil
    }

    deinit { close() }
}

/// Why `RingBufferConsumer.wait` returned.
package enum RingWaitOutcome: Sendable, Hashable {
    case recordsAvailable
    /// The file was superseded: drain, which moves to the new session.
    case sessionChanged
    case timedOut
    case closed
}
