#if canImport(Glibc)
import Glibc
#endif
import CTunnelVision
import Foundation
import Linux
import Posix

/// A `PacketDevice` made of two queues, for running the whole tunnel without root, a TUN or a
/// namespace: the test `inject`s the datagrams the monitored side sends and takes what the tunnel
/// writes back with `next`. An eventfd is its descriptor, readable while injected datagrams wait,
/// so the runtime's event loop serves it exactly as it serves a TUN.
///
/// Any thread may inject and wait; the loop thread reads and writes. One lock (NSLock and
/// NSCondition: ThreadSanitizer understands them) covers both queues and the eventfd's counter.
final class MemoryPacketDevice: PacketDevice {
    let descriptor: Int32
    private let condition = NSCondition()
    private var inbound: [Data] = []
    private var outbound: [Data] = []
    private var writtenCount = 0
    private var readFailure: Int32?
    private var writeRefusal: IOResult?

    init() throws {
        descriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard descriptor >= 0 else { throw SocketError(.create, errno: errno) }
    }

    deinit { close(descriptor) }

    /// Queues a datagram as if the monitored side had sent it.
    func inject(_ datagram: Data) { inject(contentsOf: [datagram]) }

    /// Queues datagrams at once, so the tunnel reads them in one batch.
    func inject(contentsOf datagrams: [Data]) {
        condition.lock()
        defer { condition.unlock() }
        inbound.append(contentsOf: datagrams)
        var one: UInt64 = 1
        _ = Glibc.write(descriptor, &one, MemoryLayout<UInt64>.size)
    }

    /// From now on every read fails with `code` (nil: reads work again), and the descriptor stays
    /// readable meanwhile — a device whose reads fail as a broken TUN's do.
    func failReads(with code: Int32?) {
        condition.lock()
        defer { condition.unlock() }
        readFailure = code
        var one: UInt64 = 1
        if code != nil { _ = Glibc.write(descriptor, &one, MemoryLayout<UInt64>.size) }
    }

    /// From now on every write is refused with `refusal` (`.wouldBlock`: the queue full), nil: taken.
    func refuseWrites(with refusal: IOResult?) {
        condition.lock()
        defer { condition.unlock() }
        writeRefusal = refusal
    }

    /// The next datagram the tunnel wrote, waiting up to `timeout` for it.
    func next(timeout: TimeInterval = 5) -> Data? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while outbound.isEmpty {
            guard condition.wait(until: deadline) else { return nil }
        }
        return outbound.removeFirst()
    }

    /// Datagrams written and not yet taken.
    var unread: Int {
        condition.lock()
        defer { condition.unlock() }
        return outbound.count
    }

    var totalWritten: Int {
        condition.lock()
        defer { condition.unlock() }
        return writtenCount
    }

    // MARK: PacketDevice (the loop thread)

    func read(into batch: PacketBatch) -> IOResult {
        batch.removeAll()
        condition.lock()
        defer { condition.unlock() }
        if let readFailure { return .failed(readFailure) }
        while !inbound.isEmpty, let space = batch.freeSpace {
            let datagram = inbound.removeFirst()
            precondition(datagram.count <= space.count, "a datagram larger than the tunnel's MTU")
            datagram.withUnsafeBytes { space.copyMemory(from: $0) }
            batch.append(length: datagram.count)
        }
        if inbound.isEmpty {
            // Nothing waits: make the descriptor unreadable until the next inject.
            var counter: UInt64 = 0
            _ = Glibc.read(descriptor, &counter, MemoryLayout<UInt64>.size)
        }
        return batch.isEmpty ? .wouldBlock : .processed(batch.count)
    }

    func write(_ datagrams: some Collection<UnsafeRawBufferPointer>) -> PacketWriteResult {
        condition.lock()
        defer { condition.unlock() }
        if let writeRefusal { return PacketWriteResult(written: 0, refusal: writeRefusal) }
        for datagram in datagrams { outbound.append(Data(datagram)) }
        writtenCount += datagrams.count
        condition.broadcast()
        return PacketWriteResult(written: datagrams.count)
    }
}
