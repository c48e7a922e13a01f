import Fixtures
import Testing
@testable import Shared

@Suite struct InternetChecksumTests {
    private func checksum(_ bytes: [UInt8]) -> UInt16 { bytes.withUnsafeBytes { InternetChecksum.checksum($0) } }

    @Test func theRFC1071ExampleSumsToDDF2() {
        // RFC 1071 §3: bytes 00 01 f2 03 f4 f5 f6 f7 have the one's complement sum 0xddf2.
        var sum = InternetChecksum()
        sum.add(bytes: [0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7] as [UInt8])
        #expect(sum.onesComplementSum == 0xddf2)
        #expect(sum.value == 0x220d)
    }

    @Test func theRFC1624HeaderChecksumsMatchTheRFC() {
        // RFC 1624 §3: the other header words sum to 0xCD7A; with m = 0x5555 the checksum is
        // 0xDD2F; with m' = 0x3285 recomputation gives 0x0000, and so must equation 3.
        #expect(checksum([0xcd, 0x7a, 0x55, 0x55]) == 0xdd2f)
        #expect(checksum([0xcd, 0x7a, 0x32, 0x85]) == 0x0000)
        #expect(InternetChecksum.updated(0xdd2f, replacing: 0x5555, with: 0x3285) == 0x0000)
    }

    @Test func aRealIPv4HeaderVerifiesToZero() {
        // The textbook header 4500 0073 0000 4000 4011 b861 c0a8 0001 c0a8 00c7: its checksum
        // field is 0xb861, and a header with a correct checksum sums to 0xffff.
        let header: [UInt8] = [0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0xb8, 0x61,
                               0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7]
        #expect(checksum(header) == 0)
        var zeroed = header
        zeroed[10] = 0
        zeroed[11] = 0
        #expect(checksum(zeroed) == 0xb861)
    }

    @Test func feedingInPiecesSplitAtOddBoundariesGivesTheSameSum() {
        var random = SeededRandom(seed: 7)
        for length in 0..<80 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let whole = checksum(bytes)
            for split in 0...length {
                var pieces = InternetChecksum()
                pieces.add(bytes: bytes[0..<split])
                pieces.add(bytes: bytes[split...])
                #expect(pieces.value == whole, "length \(length) split \(split)")
            }
        }
    }

    @Test func anOddTrailingByteIsPaddedWithZero() {
        #expect(checksum([0x12, 0x34, 0x56]) == checksum([0x12, 0x34, 0x56, 0x00]))
    }

    /// RFC 1071 §4.1's loop, word by word with the carries folded at the end: the wide fast path
    /// must agree with it at every length and alignment, including carries out of 64 bits.
    @Test func theWideSumAgreesWithTheWordByWordDefinition() {
        var random = SystemRandomNumberGenerator()
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1499, 1500, 65_535] {
            for fill in ["random", "ones"] {
                let bytes: [UInt8] = (0..<(length + 3)).map { _ in fill == "ones" ? 0xFF : UInt8.random(in: 0...255, using: &random) }
                for start in 0..<3 {
                    let piece = Array(bytes[start..<(start + length)])
                    var sum: UInt64 = 0
                    var index = 0
                    while index + 1 < piece.count { sum += UInt64(piece[index]) << 8 | UInt64(piece[index + 1]); index += 2 }
                    if index < piece.count { sum += UInt64(piece[index]) << 8 }
                    while sum > 0xFFFF { sum = (sum & 0xFFFF) + (sum >> 16) }
                    let expected = ~UInt16(sum)
                    #expect(piece.withUnsafeBytes { InternetChecksum.checksum($0) } == expected, "length \(length) at \(start)")
                }
            }
        }
    }
}
