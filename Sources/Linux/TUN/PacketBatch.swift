import Foundation

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
    /// Where each datagram of the last read starts and ends in `arena`; each read's space starts
    /// where the one before ends, a device's header (the vnet header) between the two.
    private var starts: [Int] = []
    private var ends: [Int] = []

    /// `arenaBytes` is rounded up to hold at least one datagram of `datagramLimit`.
    package init(capacity: Int, datagramLimit: Int, arenaBytes: Int) {
        precondition(capacity > 0 && datagramLimit > 0, "a batch holds at least one datagram")
        self.capacity = capacity
        self.datagramLimit = datagramLimit
        arena = .allocate(byteCount: max(arenaBytes, datagramLimit), alignment: 16)
        starts.reserveCapacity(capacity)
        ends.reserveCapacity(capacity)
    }

    deinit { arena.deallocate() }

    package var count: Int { ends.count }
    package var isEmpty: Bool { ends.isEmpty }

    package subscript(index: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: arena[starts[index]..<ends[index]])
    }

    /// Datagram `index` as `Data` without a copy: lent, valid until the next read. Whoever keeps
    /// any of it past the call it was handed to copies it (`Data(slice)`, `append` do).
    package func lend(_ index: Int) -> Data {
        let datagram = mutableDatagram(index)
        guard let start = datagram.baseAddress else { return Data() }
        return Data(bytesNoCopy: start, count: datagram.count, deallocator: .none)
    }

    #if DEBUG
    /// Overwrites the last read's datagrams, in debug builds after they were handled: bytes kept
    /// from a lent datagram then read as garbage in a test instead of being right by chance.
    package func scribbleOver() {
        guard let last = ends.last else { return }
        UnsafeMutableRawBufferPointer(rebasing: arena[0..<last]).initializeMemory(as: UInt8.self, repeating: 0xA5)
    }
    #endif

    /// Datagram `index`, writable: the batch's owner may finish what the device left to it (a
    /// partial checksum) before handing it on.
    func mutableDatagram(_ index: Int) -> UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(rebasing: arena[starts[index]..<ends[index]])
    }

    /// The `length` bytes the device put before datagram `index` in the same read (its vnet
    /// header); empty when it put fewer.
    package func prefix(of index: Int, length: Int) -> UnsafeRawBufferPointer {
        let readStart = index == 0 ? 0 : ends[index - 1]
        guard starts[index] - readStart >= length else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(rebasing: arena[(starts[index] - length)..<starts[index]])
    }

    /// Where the next datagram may be read: `datagramLimit` bytes, or nil when the batch is full.
    package var freeSpace: UnsafeMutableRawBufferPointer? {
        let used = ends.last ?? 0
        guard ends.count < capacity, arena.count - used >= datagramLimit else { return nil }
        return UnsafeMutableRawBufferPointer(rebasing: arena[used..<(used + datagramLimit)])
    }

    /// The datagram just read into `freeSpace` is `length` bytes long, after `header` bytes of the
    /// device's own.
    package func append(length: Int, after header: Int = 0) {
        let used = ends.last ?? 0
        precondition(length >= 0 && header >= 0 && header + length <= datagramLimit && ends.count < capacity,
                     "a datagram larger than its space")
        starts.append(used + header)
        ends.append(used + header + length)
    }

    /// Empties the batch for the next read, keeping its memory.
    package func removeAll() {
        starts.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }
}
