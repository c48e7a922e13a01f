import Linux
import Testing

/// The read batch's packing: many small datagrams or a few large ones, within its arena.
@Suite("PacketBatch")
struct PacketBatchTests {
    /// Reads datagrams of `size` until the batch says it is full; returns how many fit.
    static func fill(_ batch: PacketBatch, size: Int) -> Int {
        batch.removeAll()
        var value: UInt8 = 0
        while let space = batch.freeSpace {
            #expect(space.count == batch.datagramLimit)
            for index in 0..<size { space[index] = value &+ UInt8(truncatingIfNeeded: index) }
            batch.append(length: size)
            value &+= 1
        }
        return batch.count
    }

    @Test("small datagrams fill it to its capacity, each read back where it was written")
    func small() {
        let batch = PacketBatch(capacity: 64, datagramLimit: 1_564, arenaBytes: 4 * 1_564)
        #expect(Self.fill(batch, size: 40) == 64)
        for index in 0..<batch.count {
            #expect(batch[index].count == 40)
            #expect(batch[index].first == UInt8(index))
            #expect(batch[index].last == UInt8(truncatingIfNeeded: index + 39))
        }
    }

    @Test("large datagrams stop it when the rest of the arena could not hold another")
    func large() {
        let batch = PacketBatch(capacity: 64, datagramLimit: 1_564, arenaBytes: 4 * 1_564)
        #expect(Self.fill(batch, size: 1_564) == 4)
        // Packed back to back: after five of 1 000 bytes, 1 256 are left, less than a read needs.
        #expect(Self.fill(batch, size: 1_000) == 5)
    }

    @Test("emptied, it reads from the start again; an arena smaller than one datagram still holds one")
    func reuse() {
        let batch = PacketBatch(capacity: 8, datagramLimit: 100, arenaBytes: 10)
        #expect(Self.fill(batch, size: 100) == 1)
        batch.removeAll()
        #expect(batch.isEmpty && batch.freeSpace?.count == 100)
    }

    @Test("a device's header before each datagram stays in the arena, out of the datagram")
    func headerBeforeEach() throws {
        let batch = PacketBatch(capacity: 8, datagramLimit: 100, arenaBytes: 400)
        for fill: UInt8 in 1...3 {
            let space = try #require(batch.freeSpace)
            space.storeBytes(of: UInt16(0xEEEE), as: UInt16.self)            // the header
            for offset in 2..<(2 + Int(fill) * 10) { space[offset] = fill }   // the datagram
            batch.append(length: Int(fill) * 10, after: 2)
        }
        #expect((0..<3).map { Array(batch[$0]) } == [[UInt8](repeating: 1, count: 10), [UInt8](repeating: 2, count: 20),
                                                      [UInt8](repeating: 3, count: 30)])
    }
}
