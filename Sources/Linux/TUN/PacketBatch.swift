/// The buffers a `PacketDevice` reads datagrams into, owned by the caller and reused for every
/// read (wireguard-go's pooled buffers): one arena allocated once, the datagrams of the last read
/// packed in it back to back. A read goes on while the rest of the arena can hold a datagram of
/// `datagramLimit` bytes, so a batch holds `capacity` small datagrams, or fewer large ones, in a
/// bounded amount of memory whatever the MTU.
///
/// The arena is left uninitialized: the kernel backs its pages only as datagrams fill them.
/// Owned by one thread, the event loop's.
package final class PacketBatch {
    /// Datagrams per read, at most.
    package let capacity: Int
    /// The room a read needs: the device's MTU, and some.
    package let datagramLimit: Int
    private let arena: UnsafeMutableRawBufferPointer
    /// Where each datagram of the last read ends in `arena`; each starts where the one before ends.
    private var ends: [Int] = []

    /// `arenaBytes` is rounded up to hold at least one datagram of `datagramLimit`.
    package init(capacity: Int, datagramLimit: Int, arenaBytes: Int) {
        precondition(capacity > 0 && datagramLimit > 0, "a batch holds at least one datagram")
        self.capacity = capacity
        self.datagramLimit = datagramLimit
        arena = .allocate(byteCount: max(arenaBytes, datagramLimit), alignment: 16)
        ends.reserveCapacity(capacity)
    }

    deinit { arena.deallocate() }

    package var count: Int { ends.count }
    package var isEmpty: Bool { ends.isEmpty }

    package subscript(index: Int) -> UnsafeRawBufferPointer {
        let start = index == 0 ? 0 : ends[index - 1]
        return UnsafeRawBufferPointer(rebasing: arena[start..<ends[index]])
    }

    /// Where the next datagram may be read: `datagramLimit` bytes, or nil when the batch is full.
    package var freeSpace: UnsafeMutableRawBufferPointer? {
        let used = ends.last ?? 0
        guard ends.count < capacity, arena.count - used >= datagramLimit else { return nil }
        return UnsafeMutableRawBufferPointer(rebasing: arena[used..<(used + datagramLimit)])
    }

    /// The datagram just read into `freeSpace` is `length` bytes long.
    package func append(length: Int) {
        let used = ends.last ?? 0
        precondition(length >= 0 && length <= datagramLimit && ends.count < capacity, "a datagram larger than its space")
        ends.append(used + length)
    }

    /// Empties the batch for the next read, keeping its memory.
    package func removeAll() { ends.removeAll(keepingCapacity: true) }
}
