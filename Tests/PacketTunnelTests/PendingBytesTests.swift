import Foundation
@testable import PacketTunnel
import Testing

@Suite("The records waiting for the device's window")
struct PendingBytesTests {
    @Test("takes hand out the bytes in order, across pieces and splitting them, and the count follows")
    func inOrder() {
        var pending = PendingBytes()
        let pieces = [Data(0..<10), Data(10..<13), Data(13..<40)]
        for piece in pieces { pending.append(piece) }
        pending.append(Data())
        #expect(pending.count == 40)
        var out: [Data] = []
        for limit in [4, 4, 7, 1, 100] { out.append(pending.take(upTo: limit)) }
        #expect(out.map(\.count) == [4, 4, 7, 1, 24])
        #expect(out.allSatisfy { $0.startIndex == 0 })
        #expect(Data(out.joined()) == Data(0..<40))
        #expect(pending.isEmpty && pending.count == 0)
        #expect(pending.take(upTo: 10).isEmpty)
    }

    @Test("a take of nothing takes nothing")
    func zero() {
        var pending = PendingBytes()
        pending.append(Data([1, 2, 3]))
        #expect(pending.take(upTo: 0).isEmpty)
        #expect(pending.count == 3)
    }

    @Test("appending adopting takes an empty Data's place, and copies a slice to index from zero")
    func adopting() {
        var empty = Data()
        empty.append(adopting: Data([1, 2]))
        #expect(empty == Data([1, 2]))
        var other = Data()
        let slice = Data([9, 8, 7]).dropFirst()
        other.append(adopting: slice)
        #expect(other == Data([8, 7]))
        other.append(adopting: Data([6]))
        #expect(Array(other) == [8, 7, 6])
    }
}
