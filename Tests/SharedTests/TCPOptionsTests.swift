import Fixtures
import Testing
@testable import Shared

@Suite struct TCPOptionsTests {
    /// A Linux SYN's options: MSS 1460, SACK permitted, timestamps, NOP, window scale 7.
    static let linuxSyn: [UInt8] = [2, 4, 0x05, 0xB4, 4, 2, 8, 10, 0, 0, 0, 1, 0, 0, 0, 0, 1, 3, 3, 7]

    @Test func aLinuxSynsOptionsGiveItsMSSAndWindowScale() throws {
        #expect(try TCPOptions.parse(Self.linuxSyn) == TCPOptions(maximumSegmentSize: 1460, windowScale: 7))
    }

    @Test func noOptionsAndPaddingAloneGiveNeither() throws {
        #expect(try TCPOptions.parse([UInt8]()) == TCPOptions())
        #expect(try TCPOptions.parse([1, 1, 1, 1]) == TCPOptions())
    }

    @Test func nothingAfterEndOfListIsRead() throws {
        #expect(try TCPOptions.parse([2, 4, 0x02, 0x18, 0, 3, 3, 9]) == TCPOptions(maximumSegmentSize: 536))
        #expect(try TCPOptions.parse([0, 0xFF]) == TCPOptions())
    }

    @Test func aRepeatedOptionKeepsItsFirstValue() throws {
        #expect(try TCPOptions.parse([2, 4, 0, 100, 2, 4, 0, 200]) == TCPOptions(maximumSegmentSize: 100))
    }

    @Test func impossibleLengthsAreRefused() {
        #expect(throws: TCPOptionsParseError.badLength(kind: 8, length: 1, offset: 0)) { try TCPOptions.parse([8, 1, 0, 0]) }
        #expect(throws: TCPOptionsParseError.badLength(kind: 2, length: 3, offset: 1)) { try TCPOptions.parse([1, 2, 3, 5]) }
        #expect(throws: TCPOptionsParseError.badLength(kind: 3, length: 4, offset: 0)) { try TCPOptions.parse([3, 4, 7, 0]) }
    }

    @Test func everyProperPrefixOfALinuxSynsOptionsParsesOrFailsCleanly() {
        for length in 0..<Self.linuxSyn.count {
            _ = try? TCPOptions.parse(Array(Self.linuxSyn[..<length]))
        }
        #expect(throws: TCPOptionsParseError.truncated(kind: 4, offset: 4)) { try TCPOptions.parse(Array(Self.linuxSyn[..<5])) }
        #expect(throws: TCPOptionsParseError.truncated(kind: 8, offset: 6)) { try TCPOptions.parse(Array(Self.linuxSyn[..<10])) }
    }

    @Test func encodingIsWordAlignedAndParsesBack() throws {
        let both = TCPOptions(maximumSegmentSize: 1440, windowScale: 0)
        #expect(both.encoded == [2, 4, 0x05, 0xA0, 1, 3, 3, 0])
        #expect(both.encodedLength == 8)
        #expect(try TCPOptions.parse(both.encoded) == both)
        #expect(TCPOptions(maximumSegmentSize: 1460).encoded == [2, 4, 0x05, 0xB4])
        #expect(TCPOptions().encoded.isEmpty)
    }

    @Test func aSeededRandomRunNeverTraps() {
        var random = SeededRandom(seed: 9293)
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 0...8, using: &random) }
            _ = try? TCPOptions.parse(bytes)
        }
    }
}
