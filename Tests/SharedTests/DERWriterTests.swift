import Foundation
import Testing
@testable import Shared

/// Golden vectors worked out by hand from X.690 (the section at each) or taken from well-known
/// published encodings — never from the writer's own output — and round trips through `DERReader`.
@Suite struct DERWriterTests {
    private func written(_ body: (inout DERWriter) throws -> Void) rethrows -> [UInt8] {
        var writer = DERWriter()
        try body(&writer)
        return writer.bytes
    }

    @Test("INTEGER from Int: the shortest two's complement (X.690 §8.3.2, its own examples)")
    func integersFromInt() {
        // 0 → 00; 127 → 7F; 128 → 00 80 (a leading zero keeps it positive); 256 → 01 00;
        // -1 → FF; -128 → 80; -129 → FF 7F; Int.max → 7F FF…; Int.min → 80 00….
        let cases: [(Int, [UInt8])] = [
            (0, [0x00]), (127, [0x7F]), (128, [0x00, 0x80]), (256, [0x01, 0x00]), (-1, [0xFF]), (-128, [0x80]),
            (-129, [0xFF, 0x7F]), (Int.max, [0x7F] + [UInt8](repeating: 0xFF, count: 7)),
            (Int.min, [0x80] + [UInt8](repeating: 0x00, count: 7)),
        ]
        for (value, content) in cases {
            #expect(written { $0.integer(value) } == [0x02, UInt8(content.count)] + content, "\(value)")
        }
    }

    @Test("INTEGER from a magnitude: leading zeros dropped, a zero put back before a high bit, empty is zero")
    func integersFromMagnitude() {
        #expect(written { $0.integer(magnitude: [0x00, 0x00, 0x01]) } == [0x02, 0x01, 0x01])
        #expect(written { $0.integer(magnitude: [0x80, 0x01]) } == [0x02, 0x03, 0x00, 0x80, 0x01])
        #expect(written { $0.integer(magnitude: []) } == [0x02, 0x01, 0x00])
        #expect(written { $0.integer(magnitude: [0x00]) } == [0x02, 0x01, 0x00])
    }

    @Test("OBJECT IDENTIFIER: well-known encodings (RFC 5758 ecdsa-with-SHA256, X.520 commonName, id-kp-serverAuth, X.690 §8.19.5's example)")
    func objectIdentifiers() throws {
        // 1.2.840.10045.4.3.2 = 06 08 2A 86 48 CE 3D 04 03 02 (RFC 5758 §3.2's DER)
        #expect(try written { try $0.objectIdentifier("1.2.840.10045.4.3.2") } == [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02])
        #expect(try written { try $0.objectIdentifier("2.5.4.3") } == [0x06, 0x03, 0x55, 0x04, 0x03])
        #expect(try written { try $0.objectIdentifier("1.3.6.1.5.5.7.3.1") } == [0x06, 0x08, 0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x01])
        // X.690 §8.19.5: {2 999 3} → 88 37 03 (first subidentifier 40·2+999 = 1079 = 0x437).
        #expect(try written { try $0.objectIdentifier("2.999.3") } == [0x06, 0x03, 0x88, 0x37, 0x03])
    }

    @Test("OBJECT IDENTIFIER text that is not one is refused and nothing is written")
    func badObjectIdentifiers() {
        for text in ["", "1", "3.1", "1.40", "0.40", "1..2", "1.2.", "1.-2", "1.2a", " 1.2", "1.2.99999999999999999999999"] {
            var writer = DERWriter()
            #expect(throws: DERWriterFailure.invalidObjectIdentifier(text), "\(text)") { try writer.objectIdentifier(text) }
            #expect(writer.bytes.isEmpty)
        }
    }

    @Test("lengths: short form to 127, then 81 xx, 82 xx xx — the fewest bytes (X.690 §8.1.3, §10.1)")
    func lengths() {
        #expect(Array(written { $0.octetString([UInt8](repeating: 1, count: 127)) }.prefix(2)) == [0x04, 0x7F])
        #expect(Array(written { $0.octetString([UInt8](repeating: 1, count: 128)) }.prefix(3)) == [0x04, 0x81, 0x80])
        #expect(Array(written { $0.octetString([UInt8](repeating: 1, count: 255)) }.prefix(3)) == [0x04, 0x81, 0xFF])
        #expect(Array(written { $0.octetString([UInt8](repeating: 1, count: 256)) }.prefix(4)) == [0x04, 0x82, 0x01, 0x00])
        #expect(Array(written { $0.octetString([UInt8](repeating: 1, count: 70_000)) }.prefix(5)) == [0x04, 0x83, 0x01, 0x11, 0x70])
    }

    @Test("BOOLEAN, NULL, OCTET STRING, BIT STRING, UTF8String, PrintableString, IA5String")
    func primitives() throws {
        #expect(written { $0.boolean(true) } == [0x01, 0x01, 0xFF])
        #expect(written { $0.boolean(false) } == [0x01, 0x01, 0x00])
        #expect(written { $0.null() } == [0x05, 0x00])
        #expect(written { $0.octetString([0xDE, 0xAD]) } == [0x04, 0x02, 0xDE, 0xAD])
        #expect(written { $0.bitString([0x0A, 0x3B, 0x5F, 0x29, 0x1C, 0xD0], unusedBits: 4) }
                == [0x03, 0x07, 0x04, 0x0A, 0x3B, 0x5F, 0x29, 0x1C, 0xD0])           // X.690 §8.6.4.2's example
        #expect(written { $0.utf8String("é") } == [0x0C, 0x02, 0xC3, 0xA9])
        #expect(try written { try $0.printableString("US") } == [0x13, 0x02, 0x55, 0x53])
        #expect(try written { try $0.ia5String("a.b") } == [0x16, 0x03, 0x61, 0x2E, 0x62])
        var writer = DERWriter()
        #expect(throws: DERWriterFailure.notPrintable("a@b")) { try writer.printableString("a@b") }
        #expect(throws: DERWriterFailure.notIA5("é")) { try writer.ia5String("é") }
        #expect(writer.bytes.isEmpty)
    }

    @Test("KeyUsage named bits: trailing zero bits dropped (X.690 §11.2.2; RFC 5280 §4.2.1.3's bit numbers)")
    func namedBits() {
        // keyCertSign(5) + cRLSign(6): 0000 0110, one unused bit → 03 02 01 06.
        #expect(written { $0.namedBits([5, 6]) } == [0x03, 0x02, 0x01, 0x06])
        // digitalSignature(0) alone: 1000 0000, seven unused → 03 02 07 80.
        #expect(written { $0.namedBits([0]) } == [0x03, 0x02, 0x07, 0x80])
        // digitalSignature + keyCertSign + cRLSign: 1000 0110 → 03 02 01 86 (a common CA's KeyUsage).
        #expect(written { $0.namedBits([0, 5, 6]) } == [0x03, 0x02, 0x01, 0x86])
        // decipherOnly(8): the second byte, 1000 0000, seven unused → 03 03 07 00 80.
        #expect(written { $0.namedBits([8]) } == [0x03, 0x03, 0x07, 0x00, 0x80])
        #expect(written { $0.namedBits([]) } == [0x03, 0x01, 0x00])
    }

    @Test("times: UTCTime through 2049, GeneralizedTime from 2050 and before 1950 (RFC 5280 §4.1.2.5)")
    func times() throws {
        // 2049-12-31T23:59:59Z = 2524607999 s; 2050-01-01T00:00:00Z = 2524608000 s.
        #expect(try written { try $0.time(Date(timeIntervalSince1970: 2_524_607_999)) } == [0x17, 0x0D] + Array("491231235959Z".utf8))
        #expect(try written { try $0.time(Date(timeIntervalSince1970: 2_524_608_000)) } == [0x18, 0x0F] + Array("20500101000000Z".utf8))
        // 1950-01-01T00:00:00Z = -631152000 s; one second before is 1949, GeneralizedTime.
        #expect(try written { try $0.time(Date(timeIntervalSince1970: -631_152_000)) } == [0x17, 0x0D] + Array("500101000000Z".utf8))
        #expect(try written { try $0.time(Date(timeIntervalSince1970: -631_152_001)) } == [0x18, 0x0F] + Array("19491231235959Z".utf8))
        // 2000-02-29T12:34:56.9Z: a leap day, the fraction dropped.
        #expect(try written { try $0.utcTime(Date(timeIntervalSince1970: 951_827_696.9)) } == [0x17, 0x0D] + Array("000229123456Z".utf8))
        #expect(try written { try $0.generalizedTime(Date(timeIntervalSince1970: 0)) } == [0x18, 0x0F] + Array("19700101000000Z".utf8))
        var writer = DERWriter()
        #expect(throws: DERWriterFailure.self) { try writer.utcTime(Date(timeIntervalSince1970: 2_524_608_000)) }
        #expect(throws: DERWriterFailure.self) { try writer.time(Date(timeIntervalSince1970: 1e12)) }
    }

    @Test("every time written reads back to the same second through CertificateTime")
    func timeRoundTrip() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let seconds = Double(Int64.random(in: -62_167_219_200...253_402_300_799, using: &generator))
            var writer = DERWriter()
            try writer.time(Date(timeIntervalSince1970: seconds))
            var reader = DERReader(writer.bytes[...])
            let element = try reader.read()
            #expect(CertificateTime.date(from: element) == Date(timeIntervalSince1970: seconds), "\(seconds)")
        }
    }

    @Test("constructed and context tags nest, and DERReader reads back exactly what was written")
    func nestingRoundTrip() throws {
        let bytes = written { writer in
            writer.sequence { outer in
                outer.explicit(0) { $0.integer(2) }
                outer.set { $0.null() }
                outer.implicit(2, content: Array("example.com".utf8))
                outer.octetString([UInt8](repeating: 0x5A, count: 300))
            }
        }
        // Hand-built: SEQUENCE { [0] { INTEGER 2 }, SET { NULL }, [2] "example.com", OCTET STRING(300) }.
        let expected: [UInt8] = [0x30, 0x82, 0x01, 0x46, 0xA0, 0x03, 0x02, 0x01, 0x02, 0x31, 0x02, 0x05, 0x00, 0x82, 0x0B]
            + Array("example.com".utf8) + [0x04, 0x82, 0x01, 0x2C] + [UInt8](repeating: 0x5A, count: 300)
        #expect(bytes == expected)
        var reader = DERReader(bytes[...])
        let sequence = try reader.read()
        #expect(sequence.tag == .sequence && reader.isAtEnd)
        var inner = DERReader(sequence.content)
        #expect(try inner.read().tag == .contextSpecific(0, constructed: true))
        #expect(try inner.read().tag == .set)
        let name = try inner.read()
        #expect(name.tag == .contextSpecific(2, constructed: false) && Array(name.content) == Array("example.com".utf8))
        #expect(try inner.read().content.count == 300 && inner.isAtEnd)
    }

    @Test("a high tag number takes the base-128 form and reads back (X.690 §8.1.2.4)")
    func highTagNumber() throws {
        let bytes = written { $0.append(.contextSpecific(201, constructed: false), content: [0x01]) }
        #expect(bytes == [0x9F, 0x81, 0x49, 0x01, 0x01])                 // 201 = 1·128 + 73
        var reader = DERReader(bytes[...])
        #expect(try reader.read().tag == .contextSpecific(201, constructed: false))
    }
}
