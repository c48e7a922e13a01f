import Foundation
@testable import Linux
import Testing

/// Where `SSL_read` decrypts into: the bytes written through `room()` come back as `Data`,
/// exactly, however often the buffer had to grow.
@Suite("The plaintext buffer of an inspected session")
struct PlaintextBufferTests {
    @Test("reads of any size, past the first capacity, come back byte-exact; nothing read is empty Data", arguments: [1, 7, 4_096, 16_384])
    func readsComeBackExact(capacity: Int) {
        let expected = Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 5) })
        var buffer = PlaintextBuffer(capacity: capacity)
        var offset = 0
        var piece = 1
        while offset < expected.count {
            guard let room = buffer.room() else {
                Issue.record("out of memory")
                return
            }
            #expect(room.count > 0)
            // Like SSL_read: at most the room, often less.
            let count = min(room.count, piece, expected.count - offset)
            expected[offset..<(offset + count)].withUnsafeBytes { room.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: count) }
            buffer.count += count
            offset += count
            piece = piece * 3 + 1
        }
        #expect(buffer.take() == expected)
        #expect(buffer.count == 0 && buffer.take().isEmpty, "taken once; the buffer is empty afterwards")

        var unused = PlaintextBuffer(capacity: capacity)
        _ = unused.room()
        #expect(unused.take().isEmpty)
    }

    @Test("a short read keeps only what it used")
    func shortReadIsKept() throws {
        var buffer = PlaintextBuffer(capacity: 1 << 20)
        let room = buffer.room()
        try #require(room != nil)
        room?.storeBytes(of: 0x4142_4344 as UInt32, as: UInt32.self)
        buffer.count = 3
        #expect(buffer.take() == Data([0x44, 0x43, 0x42]))
    }
}
