import Fixtures
import Foundation
import Testing
@testable import Shared

@Suite struct ServerCertificateReaderTests {
    typealias D = DERTestBuilder

    private func read(_ der: [UInt8], maxNameLength: Int = 256) -> ServerCertificate? {
        ServerCertificateReader.certificate(fromDER: der[...], maxNameLength: maxNameLength)
    }

    /// The subject text of a certificate whose subject is `name`.
    private func subject(_ name: [UInt8], maxNameLength: Int = 256) -> CertificateName? {
        read(D.certificate(subject: name, issuer: D.name(D.attribute(D.cn, D.utf8("CA")))), maxNameLength: maxNameLength)?.subject
    }

    private func text(_ name: [UInt8]) -> String? { subject(name)?.text }

    /// The subject text when its only attribute is CN with this (already encoded) value.
    private func cnText(_ value: [UInt8]) -> String? { text(D.name(D.attribute(D.cn, value))) }

    private func notAfter(_ time: [UInt8]) -> Date? {
        read(D.certificate(subject: D.name(), issuer: D.name(), notAfter: time))?.notAfter
    }

    // MARK: the three fields

    @Test("subject, issuer and notAfter of a hand-written certificate")
    func threeFields() throws {
        let certificate = try #require(read(D.certificate(
            subject: D.name(D.attribute(D.country, D.printable("ES")), D.attribute(D.organization, D.utf8("Acme")),
                            D.attribute(D.cn, D.utf8("www.acme.test"))),
            issuer: D.name(D.attribute(D.cn, D.utf8("Acme CA"))))))
        #expect(certificate.subject == CertificateName(text: "C=ES, O=Acme, CN=www.acme.test"))
        #expect(certificate.issuer == CertificateName(text: "CN=Acme CA"))
        #expect(certificate.notAfter == Date(timeIntervalSince1970: 1_924_991_999))      // 2030-12-31T23:59:59Z
    }

    @Test("a v1 certificate, with no version field, and a v3 one with extensions after the key")
    func versions() {
        let v1 = read(D.certificate(subject: D.name(D.attribute(D.cn, D.utf8("old"))), issuer: D.name(), version: false))
        #expect(v1?.subject.text == "CN=old" && v1?.issuer.text == "")
        let extensions = D.tlv(0xA3, D.sequence(D.sequence(D.tlv(0x06, [0x55, 0x1D, 0x13]), D.tlv(0x04, [0x30, 0x00]))))
        #expect(read(D.certificate(subject: D.name(), issuer: D.name(), extensions: extensions)) != nil)
        let brokenExtensions: [UInt8] = [0xA3, 0x05, 0x30, 0x03]                                  // [3] declares more than there is
        #expect(read(D.certificate(subject: D.name(), issuer: D.name(), extensions: brokenExtensions)) == nil)
    }

    // MARK: certificates openssl makes

    @Test("a CA and a leaf it issued, as openssl reads them")
    func opensslChain() throws {
        let openssl = OpenSSLCommand()
        try openssl.makeCertificate("ca", subject: "/C=ES/ST=Madrid/O=Acme\\, Inc./CN=Acme Root CA", days: 3650)
        try openssl.makeCertificate("leaf", subject: "/C=ES/O=Acme\\, Inc./OU=Web+CN=www.acme.test", days: 90, issuer: "ca",
                                    extraArguments: ["-multivalue-rdn"])
        let ca = try #require(read(try openssl.der("ca")))
        let leaf = try #require(read(try openssl.der("leaf")))
        #expect(ca.subject.text == "C=ES, ST=Madrid, O=Acme\\, Inc., CN=Acme Root CA")
        #expect(ca.subject.text == (try openssl.name("subject", of: "ca")) && ca.issuer == ca.subject)
        #expect(leaf.subject.text == (try openssl.name("subject", of: "leaf")))
        #expect(leaf.subject.text.hasSuffix("OU=Web+CN=www.acme.test") || leaf.subject.text.hasSuffix("CN=www.acme.test+OU=Web"))
        #expect(leaf.issuer == ca.subject)
        #expect(ca.notAfter == (try openssl.notAfter(of: "ca")))
        #expect(leaf.notAfter == (try openssl.notAfter(of: "leaf")))
    }

    @Test("what the writer writes: UTCTime before 2050, GeneralizedTime after")
    func writerTimes() throws {
        let openssl = OpenSSLCommand()
        try openssl.makeCertificate("soon", subject: "/CN=soon.test", days: 30)
        try openssl.makeCertificate("late", subject: "/CN=late.test", days: 40_000)    // past 2050
        #expect(try openssl.notAfterType(of: "soon") == "UTCTIME")
        #expect(try openssl.notAfterType(of: "late") == "GENERALIZEDTIME")
        #expect(read(try openssl.der("soon"))?.notAfter == (try openssl.notAfter(of: "soon")))
        #expect(read(try openssl.der("late"))?.notAfter == (try openssl.notAfter(of: "late")))
    }

    @Test("UTF-8 and a value needing escapes, as openssl prints them")
    func opensslEscapes() throws {
        let openssl = OpenSSLCommand()
        try openssl.makeCertificate("odd", subject: "/O=Caf\u{E9} \\#1; <x>/CN=# lead", days: 30, extraArguments: ["-utf8"])
        let certificate = try #require(read(try openssl.der("odd")))
        #expect(certificate.subject.text == "O=Caf\u{E9} #1\\; \\<x\\>, CN=\\# lead")
        #expect(certificate.subject.text == (try openssl.name("subject", of: "odd")))
    }

    // MARK: names

    @Test("attributes in the certificate's order, short names, and dotted OIDs for the rest")
    func attributeTypes() {
        func attribute(_ oid: [UInt8], _ value: String) -> [UInt8] { D.attribute(D.tlv(0x06, oid), D.utf8(value)) }
        let name = D.name(
            D.attribute(D.cn, D.utf8("first")),
            attribute([0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x01], "a@b.test"),            // emailAddress
            attribute([0x09, 0x92, 0x26, 0x89, 0x93, 0xF2, 0x2C, 0x64, 0x01, 0x19], "test"),          // DC
            attribute([0x09, 0x92, 0x26, 0x89, 0x93, 0xF2, 0x2C, 0x64, 0x01, 0x01], "u1"),            // UID
            attribute([0x55, 0x04, 0x05], "42"), attribute([0x55, 0x04, 0x07], "Bilbao"),            // serialNumber, L
            attribute([0x55, 0x04, 0x08], "Bizkaia"), attribute([0x55, 0x04, 0x0B], "Ops"),          // ST, OU
            attribute([0x2B, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x3C, 0x02, 0x01, 0x03], "ES"),      // jurisdictionC
            attribute([0x55, 0x04, 0x63], "x"),                                                      // 2.5.4.99: no name
            attribute([0x88, 0x37, 0x03], "y"),                                                      // 2.999.3
            attribute([0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x02], "z"),                  // 1.2.840.113549.1.9.2
            attribute([0x00], "w"),                                                                  // 0.0
            attribute([0x28, 0x81, 0x00], "v"))                                                      // 1.0.128
        #expect(text(name) == "CN=first, emailAddress=a@b.test, DC=test, UID=u1, serialNumber=42, L=Bilbao, ST=Bizkaia, "
                + "OU=Ops, jurisdictionC=ES, 2.5.4.99=x, 2.999.3=y, 1.2.840.113549.1.9.2=z, 0.0=w, 1.0.128=v")
    }

    @Test("invalid OIDs make the name unreadable", arguments: [[UInt8](), [0x55, 0x84], [0x55, 0x80, 0x01],
                                                             [UInt8](repeating: 0x81, count: 9) + [0x01]])
    func invalidOIDs(_ oid: [UInt8]) {
        #expect(subject(D.name(D.attribute(D.tlv(0x06, oid), D.utf8("x")))) == nil)
    }

    @Test("a multi-valued RDN joins its attributes with +")
    func multiValued() {
        let name = D.tlv(0x30, D.set(D.attribute(D.country, D.printable("ES")))
                         + D.set(D.attribute(D.unit, D.utf8("Web")), D.attribute(D.cn, D.utf8("a.test")), D.attribute(D.organization, D.utf8("O"))))
        #expect(text(name) == "C=ES, OU=Web+CN=a.test+O=O")
    }

    @Test("the string types", arguments: [
        (D.printable("Acme Ltd."), "Acme Ltd."),
        (D.utf8("Ñandú 漢字"), "Ñandú 漢字"),
        (D.tlv(0x16, Array("ia5@example.test".utf8)), "ia5@example.test"),
        (D.tlv(0x14, [0x43, 0x61, 0x66, 0xE9, 0xA0, 0xFF]), "Caf\u{E9}\u{A0}\u{FF}"),               // Teletex as Latin-1
        (D.tlv(0x1E, [0x00, 0x41, 0x03, 0xA9, 0x6F, 0x22, 0xD8, 0x3D, 0xDE, 0x00]), "AΩ漢😀"),       // BMPString, a pair too
        (D.tlv(0x1C, [0x00, 0x01, 0xF6, 0x00, 0x00, 0x00, 0x00, 0x78]), "😀x"),                      // UniversalString
        (D.tlv(0x12, Array("0123 45".utf8)), "0123 45"),                                            // NumericString
        (D.tlv(0x1A, Array("visible".utf8)), "visible"),                                            // VisibleString
        (D.printable("caf\u{E9}"), "caf\u{E9}"),                                                    // UTF-8 where it should not be
        (D.utf8(""), ""),
    ])
    func stringTypes(_ value: [UInt8], _ expected: String) {
        #expect(cnText(value) == "CN=" + expected)
    }

    @Test("values that are not text are the hex of their DER", arguments: [
        (D.tlv(0x02, [0x05]), "#020105"),                                                           // INTEGER
        (D.tlv(0x04, [0xDE, 0xAD]), "#0402DEAD"),                                                   // OCTET STRING
        (D.tlv(0x0C, [0xC3, 0x28]), "#0C02C328"),                                                   // invalid UTF-8
        (D.tlv(0x0C, [0xED, 0xA0, 0x80]), "#0C03EDA080"),                                           // a UTF-8 surrogate
        (D.tlv(0x1E, [0x00, 0x41, 0x00]), "#1E03004100"),                                           // BMP, odd length
        (D.tlv(0x1E, [0xD8, 0x3D, 0x00, 0x41]), "#1E04D83D0041"),                                   // BMP, lone surrogate
        (D.tlv(0x1C, [0x00, 0x11, 0x00, 0x00]), "#1C0400110000"),                                   // Universal, > U+10FFFF
        (D.tlv(0x30, [0x0C, 0x01, 0x61]), "#30030C0161"),                                           // constructed
    ])
    func notText(_ value: [UInt8], _ expected: String) {
        #expect(cnText(value) == "CN=" + expected)
    }

    @Test("a value cannot forge an attribute or an RDN")
    func forging() {
        #expect(cnText(D.utf8("x, CN=evil")) == "CN=x\\, CN=evil")
        #expect(cnText(D.utf8("x+OU=evil")) == "CN=x\\+OU=evil")
        #expect(cnText(D.utf8("x\\, CN=evil")) == "CN=x\\\\\\, CN=evil")
    }

    @Test("RFC 4514's special characters, and spaces and # where they matter", arguments: [
        ("a\"b;c<d>e\\f", "a\\\"b\\;c\\<d\\>e\\\\f"), ("#hash", "\\#hash"), ("a#b", "a#b"), ("a=b", "a=b"),
        (" lead", "\\ lead"), ("trail ", "trail\\ "), ("in  side", "in  side"), ("two  ", "two \\ "),
        (" ", "\\ "), ("   ", "\\  \\ "),
    ])
    func specialCharacters(_ value: String, _ expected: String) {
        #expect(cnText(D.utf8(value)) == "CN=" + expected)
    }

    @Test("control and format characters are escaped byte by byte", arguments: [
        ("a\u{0}b", "a\\00b"), ("line\nbreak", "line\\0Abreak"), ("del\u{7F}", "del\\7F"), ("c1\u{85}", "c1\\C2\\85"),
        ("rlo\u{202E}gpj.exe", "rlo\\E2\\80\\AEgpj.exe"), ("zw\u{200B}sp", "zw\\E2\\80\\8Bsp"),
        ("ls\u{2028}", "ls\\E2\\80\\A8"), ("\u{FEFF}bom", "\\EF\\BB\\BFbom"), ("tab\t", "tab\\09"),
        ("caf\u{E9} 漢", "caf\u{E9} 漢"),
    ])
    func hiddenCharacters(_ value: String, _ expected: String) {
        #expect(cnText(D.utf8(value)) == "CN=" + expected)
    }

    @Test("the name limit cuts at an edge and says so")
    func nameLimit() {
        let long = D.name(D.attribute(D.cn, D.utf8(String(repeating: "a", count: 300))))
        let cut = subject(long)
        #expect(cut == CertificateName(text: "CN=" + String(repeating: "a", count: 253), isTruncated: true))
        #expect(subject(D.name(D.attribute(D.cn, D.utf8("abcdefg"))), maxNameLength: 10) == CertificateName(text: "CN=abcdefg"))
        // An escape is kept whole or not at all; so is a multi-byte character, and a TYPE=.
        #expect(subject(D.name(D.attribute(D.cn, D.utf8("abcdef,x"))), maxNameLength: 10)
                == CertificateName(text: "CN=abcdef", isTruncated: true))
        #expect(subject(D.name(D.attribute(D.cn, D.utf8("abcdeé"))), maxNameLength: 10) == CertificateName(text: "CN=abcdeé"))
        #expect(subject(D.name(D.attribute(D.cn, D.utf8("abcdefé"))), maxNameLength: 10)
                == CertificateName(text: "CN=abcdef", isTruncated: true))
        #expect(subject(D.name(D.attribute(D.cn, D.utf8("abc")), D.attribute(D.organization, D.utf8("x"))), maxNameLength: 8)
                == CertificateName(text: "CN=abc", isTruncated: true))
        #expect(subject(D.name(D.attribute(D.cn, D.utf8("a"))), maxNameLength: 0) == CertificateName(text: "", isTruncated: true))
        // Past the cut the structure is still checked.
        let brokenLater = D.tlv(0x30, D.set(D.attribute(D.cn, D.utf8("abcdefgh"))) + D.tlv(0x31, []))
        #expect(subject(brokenLater, maxNameLength: 5) == nil)
    }

    @Test("broken names", arguments: [
        D.tlv(0x30, D.tlv(0x31, [])),                                                              // an empty RDN
        D.tlv(0x30, D.set(D.sequence(D.cn))),                                                      // no value
        D.tlv(0x30, D.set(D.sequence(D.cn, D.utf8("a"), D.utf8("b")))),                            // two values
        D.tlv(0x30, D.set(D.sequence(D.utf8("a"), D.utf8("b")))),                                  // no OID
        D.tlv(0x30, D.tlv(0x30, D.attribute(D.cn, D.utf8("a")))),                                  // a SEQUENCE for a SET
        D.tlv(0x31, D.set(D.attribute(D.cn, D.utf8("a")))),                                        // a SET for the Name
    ])
    func brokenNames(_ name: [UInt8]) {
        #expect(subject(name) == nil)
    }

    // MARK: times

    @Test("both time forms, both centuries of the short one, and leap days", arguments: [
        (D.utcTime("491231235959Z"), 2_524_607_999),          // 2049-12-31T23:59:59Z
        (D.utcTime("500101000000Z"), -631_152_000),           // 1950-01-01
        (D.utcTime("700101000000Z"), 0),
        (D.utcTime("380119031408Z"), 2_147_483_648),
        (D.utcTime("240229120000Z"), 1_709_208_000),          // 2024-02-29T12:00:00Z
        (D.generalizedTime("20500101000000Z"), 2_524_608_000),
        (D.generalizedTime("20000229000000Z"), 951_782_400),  // 2000 is a leap year
        (D.generalizedTime("99991231235959Z"), 253_402_300_799),
        (D.generalizedTime("19500101000000Z"), -631_152_000),
    ] as [([UInt8], Int)])
    func times(_ time: [UInt8], _ seconds: Int) {
        #expect(notAfter(time) == Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    @Test("malformed times", arguments: [
        D.utcTime("2402291200Z"), D.utcTime("230229120000Z"), D.generalizedTime("21000229000000Z"),
        D.utcTime("241301000000Z"), D.utcTime("240001000000Z"), D.utcTime("240132000000Z"), D.utcTime("240100000000Z"),
        D.utcTime("240101240000Z"), D.utcTime("240101006000Z"), D.utcTime("240101000060Z"),
        D.utcTime("240101000000+0100"), D.utcTime("240101000000"), D.utcTime("2401010000a0Z"), D.utcTime("240101000000z"),
        D.generalizedTime("20240101000000.5Z"), D.generalizedTime("240101000000Z"), D.utcTime("20240101000000Z"),
        D.tlv(0x04, Array("240101000000Z".utf8)), D.utcTime("-40101000000Z"),
    ])
    func malformedTimes(_ time: [UInt8]) {
        #expect(notAfter(time) == nil)
    }

    @Test("a malformed notBefore makes the certificate unreadable too")
    func malformedNotBefore() {
        #expect(read(D.certificate(subject: D.name(), issuer: D.name(), notBefore: D.utcTime("241301000000Z"))) == nil)
    }

    // MARK: structure

    @Test("every truncation of a certificate, and anything after it, is unreadable")
    func truncations() {
        let der = D.certificate(subject: D.name(D.attribute(D.cn, D.utf8("t.test"))), issuer: D.name(D.attribute(D.cn, D.utf8("CA"))))
        #expect(read(der) != nil)
        for length in 0..<der.count {
            #expect(read(Array(der[..<length])) == nil, "\(length) bytes")
        }
        #expect(read(der + [0x00]) == nil)
    }

    @Test("a certificate inside a larger buffer is read from its slice")
    func slice() {
        let der = D.certificate(subject: D.name(D.attribute(D.cn, D.utf8("s.test"))), issuer: D.name())
        let buffer = [0xAA, 0xBB] + der + [0xCC]
        #expect(ServerCertificateReader.certificate(fromDER: buffer[2..<(2 + der.count)], maxNameLength: 64)?.subject.text == "CN=s.test")
    }

    @Test("a TBS that is missing fields, or a certificate with more than three parts")
    func missingParts() throws {
        let good = D.certificate(subject: D.name(), issuer: D.name())
        var outer = DERReader(good[...])
        let parts = try outer.read().content
        #expect(read(D.tlv(0x30, Array(parts) + D.tlv(0x05, []))) == nil)                // a fourth part
        let noSubject = D.sequence(D.sequence(D.tlv(0x02, [0x01]), D.ecdsaWithSHA256, D.name(),
                                              D.sequence(D.utcTime("240101000000Z"), D.utcTime("301231235959Z"))),
                                   D.ecdsaWithSHA256, D.tlv(0x03, [0x00]))
        #expect(read(noSubject) == nil)
        let threeTimes = D.sequence(D.sequence(D.tlv(0x02, [0x01]), D.ecdsaWithSHA256, D.name(),
                                               D.sequence(D.utcTime("240101000000Z"), D.utcTime("301231235959Z"), D.utcTime("301231235959Z")),
                                               D.name(), D.sequence()),
                                    D.ecdsaWithSHA256, D.tlv(0x03, [0x00]))
        #expect(read(threeTimes) == nil)
    }

    @Test("every bit of a certificate flipped, and seeded rewrites: never a trap, and a reading only of sound DER")
    func mutations() {
        let der = D.certificate(subject: D.name(D.attribute(D.cn, D.utf8("m.test"))), issuer: D.name(D.attribute(D.cn, D.utf8("CA"))))
        var readable = 0
        for bit in 0..<(der.count * 8) {
            var copy = der
            copy[bit / 8] ^= 1 << (bit % 8)
            if read(copy) != nil { readable += 1 }
        }
        var random = SeededRandom(seed: 7)
        for _ in 0..<2000 {
            var copy = der
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                copy[Int.random(in: 0..<copy.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            _ = read(copy, maxNameLength: Int.random(in: 0...40, using: &random))
        }
        // Flips inside the values and the opaque key still read; flips in lengths and tags do not.
        #expect(readable > 0 && readable < der.count * 8)
    }
}
