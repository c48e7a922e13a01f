import Testing
@testable import PacketTunnel

@Suite struct SequenceNumberTests {
    @Test func orderIsSerialAcrossTheWrap() {
        let nearMax = SequenceNumber(UInt32.max - 10)
        #expect(nearMax < 5)
        #expect(SequenceNumber(5) > nearMax)
        #expect(SequenceNumber(5) - nearMax == 16)
        #expect(nearMax - SequenceNumber(5) == -16)
        #expect(nearMax + 16 == 5)
        #expect(SequenceNumber(5) + -16 == nearMax)
    }

    @Test func distancesUpToJustUnderHalfTheSpaceKeepTheirSign() {
        let base = SequenceNumber(0x8000_0000)
        #expect(base + Int(Int32.max) > base)
        #expect(base - (base + Int(Int32.max)) == -Int(Int32.max))
        #expect(!(base < base) && base <= base)
    }

    @Test func addingWrapsAndRoundTripsThroughTheRawValue() {
        var number = SequenceNumber(UInt32.max)
        number += 1
        #expect(number.rawValue == 0)
        #expect(number.description == "0")
    }
}
