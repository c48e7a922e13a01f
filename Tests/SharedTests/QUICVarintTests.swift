import Foundation
import Testing
@testable import Shared

@Suite struct QUICVarintTests {
    private func read(_ bytes: [UInt8], at start: Int = 0) -> (value: UInt64?, index: Int) {
        var index = start
        let value = bytes.withUnsafeBytes { QUICVarint.read(from: $0, at: &index) }
        return (value, index)
    }

    @Test("the four samples of RFC 9000 Appendix A.1 decode, and the index moves past each")
    func rfcSamples() {
        #expect(read([0xc2, 0x19, 0x7c, 0x5e, 0xff, 0x14, 0xe8, 0x8c]) == (151_288_809_941_952_652, 8))
        #expect(read([0x9d, 0x7f, 0x3e, 0x7d]) == (494_878_333, 4))
        #expect(read([0x7b, 0xbd]) == (15_293, 2))
        #expect(read([0x25]) == (37, 1))
        // "as does the two-byte sequence 0x4025": non-minimal encodings are still values.
        #expect(read([0x40, 0x25]) == (37, 2))
    }

    @Test("the largest value of each length, and 2^62 − 1 at the top")
    func lengthEdges() {
        #expect(read([0x3f]).value == 63)
        #expect(read([0x7f, 0xff]).value == 16_383)
        #expect(read([0xbf, 0xff, 0xff, 0xff]).value == 1_073_741_823)
        #expect(read([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]).value == QUICVarint.maximum)
        #expect(QUICVarint.maximum == 4_611_686_018_427_387_903)
    }

    @Test("varints read one after another from the middle of a buffer")
    func consecutive() {
        // junk · 0x25 · 0x7bbd · 0x9d7f3e7d
        let bytes: [UInt8] = [0xee, 0x25, 0x7b, 0xbd, 0x9d, 0x7f, 0x3e, 0x7d]
        var index = 1
        bytes.withUnsafeBytes { raw in
            #expect(QUICVarint.read(from: raw, at: &index) == 37 && index == 2)
            #expect(QUICVarint.read(from: raw, at: &index) == 15_293 && index == 4)
            #expect(QUICVarint.read(from: raw, at: &index) == 494_878_333 && index == 8)
            #expect(QUICVarint.read(from: raw, at: &index) == nil && index == 8)
        }
    }

    @Test("every proper prefix of an encoding is refused and leaves the index where it was")
    func truncatedEncodings() {
        let eight: [UInt8] = [0xc2, 0x19, 0x7c, 0x5e, 0xff, 0x14, 0xe8, 0x8c]
        for length in 0..<8 {
            #expect(read(Array(eight.prefix(length))) == (nil, 0), "prefix \(length)")
        }
        #expect(read([0x9d, 0x7f, 0x3e]) == (nil, 0))
        #expect(read([0x7b]) == (nil, 0))
        // The length comes from the byte at the index, not the buffer's first.
        #expect(read([0x00, 0x00, 0x40], at: 2) == (nil, 2))
    }

    @Test("an index outside the buffer reads nothing")
    func indexOutside() {
        #expect(read([0x25], at: 1) == (nil, 1))
        #expect(read([0x25], at: -1) == (nil, -1))
        #expect(read([], at: 0) == (nil, 0))
    }

    @Test("Data slices are read at their own indices")
    func dataSlice() {
        let whole = Data([0xaa, 0xbb, 0x7b, 0xbd, 0x25])
        let slice = whole.dropFirst(2)
        var index = slice.startIndex
        #expect(QUICVarint.read(from: slice, at: &index) == 15_293 && index == 4)
        #expect(QUICVarint.read(from: slice, at: &index) == 37 && index == 5)
        #expect(QUICVarint.read(from: slice, at: &index) == nil && index == 5)
        var cut = whole.startIndex + 2
        #expect(QUICVarint.read(from: whole.prefix(3), at: &cut) == nil && cut == 2)
    }

    @Test("the shortest encoding's length changes at 64, 16384 and 2^30, and stops past 2^62 − 1")
    func encodedLength() {
        #expect(QUICVarint.encodedLength(of: 0) == 1)
        #expect(QUICVarint.encodedLength(of: 63) == 1)
        #expect(QUICVarint.encodedLength(of: 64) == 2)
        #expect(QUICVarint.encodedLength(of: 16_383) == 2)
        #expect(QUICVarint.encodedLength(of: 16_384) == 4)
        #expect(QUICVarint.encodedLength(of: 1_073_741_823) == 4)
        #expect(QUICVarint.encodedLength(of: 1_073_741_824) == 8)
        #expect(QUICVarint.encodedLength(of: QUICVarint.maximum) == 8)
        #expect(QUICVarint.encodedLength(of: QUICVarint.maximum + 1) == nil)
    }
}
