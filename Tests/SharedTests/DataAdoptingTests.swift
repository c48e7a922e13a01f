import Foundation
import Shared
import Testing

@Suite("Appending by adopting")
struct DataAdoptingTests {
    @Test("appending adopting takes an empty Data's place, and copies a slice to index from zero")
    func adopting() {
        var empty = Data()
        empty.append(adopting: Data([1, 2]))
        #expect(empty == Data([1, 2]))
        var other = Data()
        let slice = Data([9, 8, 7]).dropFirst()
        other.append(adopting: slice)
        #expect(other.startIndex == 0)
        #expect(Array(other) == [8, 7])
        other.append(adopting: Data([6]))
        #expect(Array(other) == [8, 7, 6])
    }
}
