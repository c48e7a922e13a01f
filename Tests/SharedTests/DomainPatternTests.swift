import Testing
import Shared

/// An audit project's allowed hosts (audit.md § Types, § Non-obvious rules): how a pattern is
/// read, refused, written back and matched.
@Suite struct DomainPatternTests {
    static func pattern(_ text: String) throws -> DomainPattern { try DomainPattern(parsing: text) }

    @Test("a name is itself exactly; *.name is every name under it at any depth, never the name itself")
    func matching() throws {
        let exact = try Self.pattern("example.com")
        #expect(exact.scope == .exact && exact.matches("example.com") && exact.matches("EXAMPLE.com."))
        #expect(!exact.matches("www.example.com") && !exact.matches("example.co"))
        let under = try Self.pattern("*.example.com")
        #expect(under.scope == .subdomains && under.name == "example.com")
        #expect(under.matches("a.example.com") && under.matches("a.b.example.com") && under.matches("API.Example.COM."))
        #expect(!under.matches("example.com"))
        // Labels, not letters: a name that only ends the same way is another name.
        #expect(!under.matches("notexample.com") && !exact.matches("notexample.com") && !under.matches(".example.com"))
    }

    @Test("the text is canonical: lowercase, no trailing dot, no surrounding space, *. kept")
    func canonicalText() throws {
        #expect(try Self.pattern("  Example.COM.  ").text == "example.com")
        #expect(try Self.pattern("*.Lab.Test").text == "*.lab.test")
        #expect(try Self.pattern("_dmarc.xn--bcher-kva.example").text == "_dmarc.xn--bcher-kva.example")
        #expect(try Self.pattern("*.lab.test") == Self.pattern("*.LAB.test."))
    }

    @Test("what cannot be a pattern is refused with its reason", arguments: [
        ("", DomainPattern.ParseError.empty), ("   ", .empty), ("*.", .empty), (".", .empty),
        ("*", .misplacedWildcard), ("a.*.com", .misplacedWildcard), ("*example.com", .misplacedWildcard),
        ("*.*.example.com", .misplacedWildcard), ("example.*", .misplacedWildcard),
        ("bücher.example", .nonASCII),
        ("a..b", .emptyLabel), (".example.com", .emptyLabel), ("example.com..", .emptyLabel),
        ("exa mple.com", .invalidCharacter(" ")), ("example.com/path", .invalidCharacter("/")),
        ("user@example.com", .invalidCharacter("@")), ("example.com:443", .invalidCharacter(":")),
    ])
    func refusals(text: String, error: DomainPattern.ParseError) {
        #expect(throws: error) { try DomainPattern(parsing: text) }
    }

    @Test("labels up to 63 characters and names up to 253 are read; one more is refused")
    func lengths() throws {
        let label63 = String(repeating: "a", count: 63)
        #expect(try Self.pattern("\(label63).test").name == "\(label63).test")
        #expect(throws: DomainPattern.ParseError.labelTooLong(label63 + "a")) { try DomainPattern(parsing: "\(label63)a.test") }
        // Three labels of 63 and one of 61, with 3 dots: 253 characters; one more letter makes 254.
        let name253 = Array(repeating: label63, count: 3).joined(separator: ".") + "." + String(repeating: "b", count: 61)
        #expect(name253.count == 253)
        #expect(try Self.pattern(name253).name.count == 253)
        #expect(throws: DomainPattern.ParseError.nameTooLong) { try DomainPattern(parsing: name253 + "b") }
        // The length is the name's: "*." does not count against it.
        #expect(try Self.pattern("*." + name253).scope == .subdomains)
    }

    @Test("every refusal says what to write instead, in words")
    func refusalsSayWhy() {
        #expect("\(DomainPattern.ParseError.misplacedWildcard)".contains("*.example.com"))
        #expect("\(DomainPattern.ParseError.nonASCII)".contains("xn--"))
        #expect("\(DomainPattern.ParseError.invalidCharacter("/"))".contains("'/'"))
    }
}
