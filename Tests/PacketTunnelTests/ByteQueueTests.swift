import Foundation
import Testing
@testable import PacketTunnel

@Suite struct ByteQueueTests {
    /// Three chunks of 5, 3 and 4 bytes counting up from 0.
    func threeChunks() -> ByteQueue {
        var queue = ByteQueue()
        queue.append(pattern(5))
        queue.append(Data())                                            // an empty read adds nothing
        queue.append(pattern(3, from: 5))
        queue.append(pattern(4, from: 8))
        return queue
    }

    @Test func aRangeInsideOneChunkIsThatChunksBytes() {
        let queue = threeChunks()
        #expect(queue.count == 12)
        #expect(queue.bytes(at: 1, count: 3) == pattern(3, from: 1))
        #expect(queue.bytes(at: 5, count: 3) == pattern(3, from: 5))
        #expect(queue.bytes(at: 11, count: 1) == pattern(1, from: 11))
        #expect(queue.bytes(at: 4, count: 0).isEmpty)
    }

    @Test func aRangeAcrossChunksIsJoinedInOrder() {
        let queue = threeChunks()
        #expect(queue.bytes(at: 3, count: 7) == pattern(7, from: 3))
        #expect(queue.bytes(at: 0, count: 12) == pattern(12))
    }

    @Test func droppingTheFrontKeepsTheRestAddressableFromZero() {
        var queue = threeChunks()
        queue.removeFirst(6)                                            // all of the first chunk, one byte of the second
        #expect(queue.count == 6)
        #expect(queue.bytes(at: 0, count: 6) == pattern(6, from: 6))
        queue.removeFirst(2)
        #expect(queue.bytes(at: 0, count: 4) == pattern(4, from: 8))
        queue.removeFirst(100)                                          // more than held: empties it
        #expect(queue.isEmpty && queue.count == 0)
        queue.append(pattern(2, from: 50))
        #expect(queue.bytes(at: 0, count: 2) == pattern(2, from: 50))
    }

    @Test func aLongRunOfAppendsAndDropsStaysConsistent() {
        var queue = ByteQueue()
        var written = 0
        var dropped = 0
        for round in 0..<500 {
            let size = (round * 37) % 97 + 1
            queue.append(pattern(size, from: written))
            written += size
            let drop = (round * 53) % 90
            queue.removeFirst(drop)
            dropped = min(written, dropped + drop)
            #expect(queue.count == written - dropped)
            if queue.count > 0 {
                #expect(queue.bytes(at: 0, count: queue.count) == pattern(queue.count, from: dropped))
            }
        }
    }
}
