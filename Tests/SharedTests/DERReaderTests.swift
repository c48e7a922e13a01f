import Testing
@testable import Shared

@Suite struct DERReaderTests {
    private func readOne(_ bytes: [UInt8]) throws(DERReader.Failure) -> DERReader.Element {
        var reader = DERReader(bytes[...])
        return try reader.read()
    }

    private func failure(_ bytes: [UInt8]) -> DERReader.Failure? {
        do { _ = try readOne(bytes); return nil } catch { return error }
    }

    @Test("short form: tag, length and content, and the reader moves past them")
    func shortForm() throws {
        var reader = DERReader([0x02, 0x01, 0x05, 0x05, 0x00][...])                   // INTEGER 5, NULL
        let integer = try reader.read()
        #expect(integer.tag == .integer && Array(integer.content) == [0x05] && Array(integer.encoded) == [0x02, 0x01, 0x05])
        let null = try reader.read()
        #expect(null.tag == .universal(5) && null.content.isEmpty && reader.isAtEnd)
    }

    @Test("long form of one, two and four length bytes")
    func longForm() throws {
        let one = try readOne([0x04, 0x81, 0x80] + [UInt8](repeating: 0xAA, count: 128))      // OCTET STRING, 128
        #expect(one.content.count == 128 && one.encoded.count == 131)
        let two = try readOne([0x30, 0x82, 0x01, 0x00] + [UInt8](repeating: 0, count: 256))   // SEQUENCE, 256
        #expect(two.tag == .sequence && two.content.count == 256)
        let four = try readOne([0x04, 0x84, 0x00, 0x00, 0x00, 0x02, 0xAB, 0xCD])              // non-minimal, tolerated
        #expect(Array(four.content) == [0xAB, 0xCD])
    }

    @Test("a slice inside a larger buffer keeps the buffer's indices")
    func sliceInsideBuffer() throws {
        let buffer: [UInt8] = [0xFF, 0xFF, 0xFF, 0x30, 0x03, 0x02, 0x01, 0x07, 0xEE]
        var outer = DERReader(buffer[3..<8])
        let sequence = try outer.read()
        #expect(sequence.content.startIndex == 5 && sequence.encoded.startIndex == 3 && outer.isAtEnd)
        var inner = DERReader(sequence.content)
        let integer = try inner.read()
        #expect(integer.content.startIndex == 7 && integer.content.first == 0x07 && inner.index == 8)
        // The slice ends where it was told to, not where the buffer does.
        var short = DERReader(buffer[3..<7])
        #expect(throws: DERReader.Failure.lengthBeyondBuffer(declared: 3, available: 2)) { try short.read() }
    }

    @Test("lengths that declare more than there is")
    func lengthBeyond() {
        #expect(failure([0x04, 0x05, 0x01, 0x02]) == .lengthBeyondBuffer(declared: 5, available: 2))
        #expect(failure([0x04, 0x82, 0xFF, 0xFF, 0x00]) == .lengthBeyondBuffer(declared: 65535, available: 1))
        #expect(failure([0x04, 0x84, 0xFF, 0xFF, 0xFF, 0xFF]) == .lengthBeyondBuffer(declared: 0xFFFF_FFFF, available: 0))
    }

    @Test("the indefinite form, and lengths of more than four bytes, are refused")
    func refusedLengths() {
        #expect(failure([0x30, 0x80, 0x02, 0x01, 0x00, 0x00, 0x00]) == .indefiniteLength)
        #expect(failure([0x04, 0x85, 0, 0, 0, 0, 1, 0xAA]) == .lengthTooLong(lengthBytes: 5))
        #expect(failure([0x04, 0xFF]) == .lengthTooLong(lengthBytes: 127))
    }

    @Test("high tag numbers: one and several bytes, context and application classes")
    func highTagNumbers() throws {
        let application = try readOne([0x7F, 0x64, 0x00])                              // [APPLICATION 100], constructed
        #expect(application.tag == DERReader.Tag(tagClass: 1, isConstructed: true, number: 100))
        let context = try readOne([0x9F, 0x81, 0x00, 0x01, 0x2A])                      // [128], primitive
        #expect(context.tag == DERReader.Tag(tagClass: 2, isConstructed: false, number: 128) && Array(context.content) == [0x2A])
        let largest = try readOne([0xDF, 0xFF, 0xFF, 0xFF, 0x7F, 0x00])                // [PRIVATE 2^28 − 1]
        #expect(largest.tag.number == (1 << 28) - 1 && largest.tag.tagClass == 3)
        #expect(failure([0x1F, 0x81, 0x81, 0x81, 0x81, 0x01, 0x00]) == .unsupportedTagNumber)   // five groups
        #expect(failure([0x1F, 0x80, 0x01, 0x00]) == .unsupportedTagNumber)                     // leading zero group
        let contextZero = try readOne([0xA0, 0x03, 0x02, 0x01, 0x02])                  // [0] EXPLICIT, as in a version
        #expect(contextZero.tag == .contextSpecific(0, constructed: true))
    }

    @Test("truncated headers", arguments: [
        [UInt8](), [0x30], [0x1F], [0x1F, 0x81], [0x04, 0x81], [0x04, 0x82, 0x01], [0x04, 0x84, 0, 0, 0],
    ])
    func truncatedHeaders(_ bytes: [UInt8]) {
        #expect(failure(bytes) == .truncatedHeader)
    }

    @Test("a failed read consumes nothing; a tag mismatch neither")
    func nothingConsumed() throws {
        var reader = DERReader([0x02, 0x01, 0x05][...])
        #expect(reader.read(.sequence) == nil && reader.index == 0)
        #expect(reader.read(.integer)?.content.first == 0x05 && reader.isAtEnd)
        var broken = DERReader([0x02, 0x05, 0x05][...])
        #expect(throws: DERReader.Failure.self) { try broken.read() }
        #expect(broken.index == 0)
    }
}
