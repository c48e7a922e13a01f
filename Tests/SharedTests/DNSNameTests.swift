import Testing
@testable import Shared

@Suite struct DNSNameTests {
    @Test func presentationTextReadsLabelsEscapesAndOneTrailingDot() throws {
        let name = try #require(DNSName(#"a\046b.c\\d.\032\000\255.Example."#))
        #expect(name.labels.map { Array($0) } == [[0x61, 0x2E, 0x62], [0x63, 0x5C, 0x64], [0x20, 0x00, 0xFF],
                                                    Array("Example".utf8)])
        #expect(name.description == #"a\046b.c\092d.\032\000\255.Example"#)
        #expect(DNSName("") == .root && DNSName(".") == .root && DNSName.root.description == ".")
    }

    @Test func badTextIsNoName() {
        for text in ["a..b", ".a", "a.\\", #"a\25"#, #"a\256"#, "..",
                     String(repeating: "x", count: 64),
                     Array(repeating: String(repeating: "x", count: 63), count: 4).joined(separator: ".")] {
            #expect(DNSName(text) == nil, "\(text)")
        }
        // 63 + 63 + 63 + 61 labels: 255 bytes in wire form, the most a name may take.
        let longest = [63, 63, 63, 61].map { String(repeating: "x", count: $0) }.joined(separator: ".")
        #expect(DNSName(longest)?.wireLength == 255)
    }

    @Test func labelsBuildANameWithinTheLimits() {
        #expect(DNSName(labels: [Array("a".utf8), Array("b".utf8)])?.wire == [1, 0x61, 1, 0x62])
        #expect(DNSName(labels: [[UInt8]]()) == .root)
        #expect(DNSName(labels: [[UInt8]()]) == nil)
        #expect(DNSName(labels: [[UInt8](repeating: 0x61, count: 64)]) == nil)
    }

    @Test func comparisonIgnoresTheCaseOfASCIILettersOnly() throws {
        let mixed = try #require(DNSName("WwW.ExAmPlE.cOm"))
        #expect(mixed.equalsIgnoringCase(try #require(DNSName("www.example.com"))))
        #expect(mixed != DNSName("www.example.com"))
        // "@" (0x40) and "`" (0x60) differ only in the case bit, but are not letters.
        #expect(!(try #require(DNSName("@"))).equalsIgnoringCase(try #require(DNSName("`"))))
        #expect(!mixed.equalsIgnoringCase(try #require(DNSName("www.example.co"))))
    }

    @Test func onlyPlainHostnamesAreExactDomainPatterns() {
        #expect(DNSName("WWW.Example.COM.")?.normalizedDomain == "www.example.com")
        #expect(DNSName("_dns.resolver.arpa")?.normalizedDomain == "_dns.resolver.arpa")
        #expect(DNSName("xn--bcher-kva.example")?.normalizedDomain == "xn--bcher-kva.example")
        #expect(DNSName("localhost")?.normalizedDomain == "localhost")
        for text in [".", "*.example.com", #"a\046b.example"#, #"a\032b.example"#, "caf\u{e9}.example", "a/b.example"] {
            #expect(DNSName(text)?.normalizedDomain == nil, "\(text)")
        }
    }
}
