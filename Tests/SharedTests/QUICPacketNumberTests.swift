import Testing
@testable import Shared

/// Expected values worked by hand from RFC 9000 Appendix A.3's pseudocode.
@Suite struct QUICPacketNumberTests {
    private func decode(_ truncated: UInt64, bytes: Int, largest: UInt64?) -> UInt64? {
        QUICPacketNumber.decode(truncated: truncated, byteCount: bytes, largestProcessed: largest)
    }

    @Test("RFC 9000 Appendix A.3: 0x9b32 after 0xa82f30ea is 0xa82f9b32")
    func rfcSample() {
        #expect(decode(0x9b32, bytes: 2, largest: 0xa82f_30ea) == 0xa82f_9b32)
    }

    @Test("with nothing opened yet the expected number is 0")
    func firstPacket() {
        #expect(decode(0, bytes: 1, largest: nil) == 0)
        #expect(decode(2, bytes: 4, largest: nil) == 2)
        #expect(decode(0xff, bytes: 1, largest: nil) == 0xff)
        #expect(decode(0x0123_4567, bytes: 4, largest: nil) == 0x0123_4567)
        #expect(decode(0xffff_ffff, bytes: 4, largest: nil) == 0xffff_ffff)
    }

    @Test("the half window around the expected number decides: above, inside, below")
    func windowEdges() {
        // Largest 0xff: expected 0x100, 1-byte window 0x100, half 0x80 → accepted 0x81...0x180.
        #expect(decode(0x7f, bytes: 1, largest: 0xff) == 0x17f)
        #expect(decode(0x80, bytes: 1, largest: 0xff) == 0x180)
        #expect(decode(0x81, bytes: 1, largest: 0xff) == 0x81)
        #expect(decode(0x00, bytes: 1, largest: 0xff) == 0x100)
        // Largest 0x1fe: expected 0x1ff → accepted 0x180...0x27f.
        #expect(decode(0x7f, bytes: 1, largest: 0x1fe) == 0x27f)
        #expect(decode(0x80, bytes: 1, largest: 0x1fe) == 0x180)
        #expect(decode(0x00, bytes: 1, largest: 0x1fe) == 0x200)
        // 2 bytes: largest 0xfffe, expected 0xffff → 0x8000...0x17fff.
        #expect(decode(0x7fff, bytes: 2, largest: 0xfffe) == 0x1_7fff)
        #expect(decode(0x8000, bytes: 2, largest: 0xfffe) == 0x8000)
    }

    @Test("near 2^62 the window is not moved up past the largest packet number")
    func topOfTheSpace() {
        // Expected 2^62 − 1: the candidate 2^62 − 256 may not gain a window.
        #expect(decode(0x00, bytes: 1, largest: QUICPacketNumber.maximum - 1) == 0x3fff_ffff_ffff_ff00)
        #expect(decode(0xff, bytes: 1, largest: QUICPacketNumber.maximum - 1) == QUICPacketNumber.maximum)
    }

    @Test("refuses byte counts outside 1...4, values wider than their bytes, and a spent space")
    func refusals() {
        #expect(decode(0, bytes: 0, largest: nil) == nil)
        #expect(decode(0, bytes: 5, largest: nil) == nil)
        #expect(decode(0x100, bytes: 1, largest: nil) == nil)
        #expect(decode(0x1_0000, bytes: 2, largest: 5) == nil)
        #expect(decode(0x1_0000_0000, bytes: 4, largest: nil) == nil)
        #expect(decode(0, bytes: 1, largest: QUICPacketNumber.maximum) == nil)
        #expect(decode(0, bytes: 1, largest: .max) == nil)
    }
}
