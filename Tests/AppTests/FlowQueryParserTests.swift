import Shared
import Testing
@testable import App

/// The search language read into terms, and every malformed query refused with the sentence a
/// person reads — naming the term as typed and what is expected.
@Suite("Flow query: reading and refusing")
struct FlowQueryParserTests {
    typealias Term = FlowQuery.Term

    static func address(_ text: String) -> IPAddress { IPAddress(parsing: text)! }

    @Test("keys in any case, comma lists, port ranges and negation read as typed, in order")
    func termsAsTyped() throws {
        #expect(try FlowQuery("PoRt:80,443,8000-8080 -Proto:udp,icmp").terms == [
            Term(.port([80...80, 443...443, 8_000...8_080])),
            Term(.proto([.udp, .icmp, .icmpv6]), negated: true),
        ])
        #expect(try FlowQuery("host:Example.COM status:PLAINTEXT,inspected program:Curl").terms == [
            Term(.names(["example.com"])), Term(.status([.plaintext, .inspected])), Term(.program(["curl"])),
        ])
        #expect(try FlowQuery("  Video\t-\"A B\"  ").terms == [Term(.names(["video"])), Term(.names(["a b"]), negated: true)])
        #expect(try FlowQuery("program:\"my app,2\",curl").terms == [Term(.program(["my app,2", "curl"]))])
        #expect(try FlowQuery("proto:6").terms == [Term(.proto([.tcp]))])
        #expect(try FlowQuery("port:0,65535").terms == [Term(.port([0...0, 65_535...65_535]))])
    }

    @Test("ja4:, ja3: and ja3s: read fingerprints in any case, lowercased; a list is any of them")
    func fingerprintTerms() throws {
        #expect(try FlowQuery("JA4:T13D1516H2_8daaf6152771 -ja3:ADA70206E40642A3E4461F35503241D5,de350869b8c85de67a350c8d186f11e6").terms == [
            Term(.ja4(["t13d1516h2_8daaf6152771"])),
            Term(.ja3(["ada70206e40642a3e4461f35503241d5", "de350869b8c85de67a350c8d186f11e6"]), negated: true),
        ])
        #expect(try FlowQuery("ja3s:eb1d94daa7e0344597e756a1fb6e7054").terms == [Term(.ja3s(["eb1d94daa7e0344597e756a1fb6e7054"]))])
    }

    @Test("a bare IPv6 address holds colons and is read as an address, never as a key")
    func ipv6IsNotAKey() throws {
        for text in ["fd00::1", "::1", "::", "FD00:7::2", "::ffff:198.18.0.1", "fd00:0:0:0:0:0:0:1"] {
            let address = Self.address(text)
            #expect(try FlowQuery(text).terms == [Term(.address([address...address]))], "\(text)")
        }
        #expect(try FlowQuery("-198.18.0.1").terms == [Term(.address([Self.address("198.18.0.1")...Self.address("198.18.0.1")]), negated: true)])
        // Parts of addresses stay text, as before: a substring of the names.
        #expect(try FlowQuery("fd00:7 198.18.0 [fd00::1]:443").terms == [Term(.names(["fd00:7"])), Term(.names(["198.18.0"])),
                                                                           Term(.names(["[fd00::1]:443"]))])
    }

    @Test("a CIDR block spans its prefix of the address's family: host bits cleared to host bits set")
    func blocks() throws {
        func block(_ text: String) throws -> ClosedRange<IPAddress>? {
            guard case .address(let ranges) = try FlowQuery(text).terms.first?.test else { return nil }
            return ranges.first
        }
        #expect(try block("198.18.0.1/15") == Self.address("198.18.0.0")...Self.address("198.19.255.255"))
        #expect(try block("198.18.0.7/32") == Self.address("198.18.0.7")...Self.address("198.18.0.7"))
        #expect(try block("198.18.3.0/23") == Self.address("198.18.2.0")...Self.address("198.18.3.255"))
        #expect(try block("1.2.3.4/0") == Self.address("0.0.0.0")...Self.address("255.255.255.255"))
        #expect(try block("fd00::/8") == Self.address("fd00::")...Self.address("fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"))
        #expect(try block("fd00:7::2/64") == Self.address("fd00:7::")...Self.address("fd00:7::ffff:ffff:ffff:ffff"))
        #expect(try block("fd00:7::2/65") == Self.address("fd00:7::")...Self.address("fd00:7::7fff:ffff:ffff:ffff"))
        #expect(try block("fd00::1/128") == Self.address("fd00::1")...Self.address("fd00::1"))
        #expect(try block("::/0") == Self.address("::")...Self.address("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"))
        // Not an address before the slash: text, as a program's name or a path would be.
        #expect(try FlowQuery("kworker/0:1 a/b").terms == [Term(.names(["kworker/0:1"])), Term(.names(["a/b"]))])
    }

    /// Every malformed query and the one sentence it is refused with.
    static let refusals: [(String, String)] = [
        ("foo:bar", "'foo:bar' has an unknown key 'foo': give host:, port:, proto:, status:, program:, http:, ja4:, ja3: or ja3s:, or write an IPv6 address whole (fd00::1)"),
        ("video -Protocol:tcp", "'-Protocol:tcp' has an unknown key 'Protocol': give host:, port:, proto:, status:, program:, http:, ja4:, ja3: or ja3s:, "
            + "or write an IPv6 address whole (fd00::1)"),
        ("https://example.com", "'https://example.com' has an unknown key 'https': give host:, port:, proto:, status:, program:, http:, ja4:, ja3: or ja3s:, "
            + "or write an IPv6 address whole (fd00::1)"),
        ("port:abc", "'abc' in 'port:abc' is not a port: give a number from 0 to 65535 or a range such as 8000-8080"),
        ("port:65536", "'65536' in 'port:65536' is not a port: give a number from 0 to 65535 or a range such as 8000-8080"),
        ("port:+80", "'+80' in 'port:+80' is not a port: give a number from 0 to 65535 or a range such as 8000-8080"),
        ("port:80-", "'80-' in 'port:80-' is not a port: give a number from 0 to 65535 or a range such as 8000-8080"),
        ("port:1-2-3", "'1-2-3' in 'port:1-2-3' is not a port: give a number from 0 to 65535 or a range such as 8000-8080"),
        ("port:80,http", "'http' in 'port:80,http' is not a port: give a number from 0 to 65535 or a range such as 8000-8080"),
        ("port:8080-80", "'8080-80' in 'port:8080-80' is a range that ends before it starts: give the lower port first"),
        ("proto:sctp", "'sctp' in 'proto:sctp' is not a protocol: give tcp, udp, icmp, icmpv6 or a number 0-255"),
        ("proto:256", "'256' in 'proto:256' is not a protocol: give tcp, udp, icmp, icmpv6 or a number 0-255"),
        ("status:secret", "'secret' in 'status:secret' is not a status: give plaintext, encrypted, inspected, notInspectable, inspectionFailed"),
        ("host:", "'host:' has an empty value: give one after host:, several separated by commas, as in host:example.com"),
        ("Port:80,", "'Port:80,' has an empty value: give one after port:, several separated by commas, as in port:80,443"),
        ("-program:,curl", "'-program:,curl' has an empty value: give one after program:, several separated by commas, as in program:curl"),
        ("host:\"\"", "'host:\"\"' has an empty value: give one after host:, several separated by commas, as in host:example.com"),
        ("proto:", "'proto:' has an empty value: give one after proto:, several separated by commas, as in proto:tcp,udp"),
        ("status:", "'status:' has an empty value: give one after status:, several separated by commas, as in status:plaintext"),
        ("video \"example com", "'\"example com' opens a quote it does not close: end the phrase with another \""),
        ("host:\"a b", "'host:\"a b' opens a quote it does not close: end the phrase with another \""),
        ("\"\"", "'\"\"' is an empty phrase: put the words to look for between the quotes"),
        ("video - port:53", "'-' on its own excludes nothing: put it right before a term, as in -port:53"),
        ("198.18.0.0/33", "'/33' in '198.18.0.0/33' is not a prefix length: give 0 to 32 after an IPv4 address"),
        ("fd00::/129", "'/129' in 'fd00::/129' is not a prefix length: give 0 to 128 after an IPv6 address"),
        ("198.18.0.0/x", "'/x' in '198.18.0.0/x' is not a prefix length: give 0 to 32 after an IPv4 address"),
        ("-fd00::/", "'/' in '-fd00::/' is not a prefix length: give 0 to 128 after an IPv6 address"),
        ("198.18.0.0/+8", "'/+8' in '198.18.0.0/+8' is not a prefix length: give 0 to 32 after an IPv4 address"),
        ("ja3:abc", "'abc' in 'ja3:abc' is not a JA3 or JA3S hash: give its 32 hex digits, as in ja3:e7d705a3286e19ea42f587b344ee6865"),
        ("ja3s:e7d705a3286e19ea42f587b344ee686g", "'e7d705a3286e19ea42f587b344ee686g' in 'ja3s:e7d705a3286e19ea42f587b344ee686g' "
            + "is not a JA3 or JA3S hash: give its 32 hex digits, as in ja3:e7d705a3286e19ea42f587b344ee6865"),
        ("ja4:", "'ja4:' has an empty value: give one after ja4:, several separated by commas, as in ja4:t13d1516h2_8daaf6152771_e5627efa2ab1"),
        ("-JA4S:t130200_1301_234ea6891581", "'-JA4S:t130200_1301_234ea6891581' asks for JA4S, which TunnelVision does not compute "
            + "(its licence, the FoxIO License 1.1, allows only non-commercial use): search ja4:, ja3: or ja3s: instead"),
        // The first term that cannot be read is the one named, whatever follows.
        ("example.com port:abc proto:sctp", "'abc' in 'port:abc' is not a port: give a number from 0 to 65535 or a range such as 8000-8080"),
    ]

    @Test("every malformed query is refused with one sentence naming the term as typed and what to give",
          arguments: refusals)
    func refused(_ text: String, _ sentence: String) {
        #expect(throws: FlowQueryError.self) { try FlowQuery(text) }
        do {
            _ = try FlowQuery(text)
        } catch {
            #expect(error.description == sentence)
            #expect(!error.description.contains("\n") && error.description.contains("'"))
        }
    }

    @Test("flows --search refuses a malformed query as a usage error, with the sentence and the field it is about")
    func questionRefuses() throws {
        do {
            _ = try TimelineQuestion.parse(["--search", "video port:abc"], now: .init(timeIntervalSince1970: 0))
            Issue.record("a malformed search was taken")
        } catch {
            let problem = "'abc' in 'port:abc' is not a port: give a number from 0 to 65535 or a range such as 8000-8080"
            #expect(error == QuestionFailure(.badParameter, "flows: --search: " + problem,
                                             parameter: .init(name: "search", problem: problem)))
        }
        let taken = try? TimelineQuestion.parse(["--search", "host:video -port:53"], now: .init(timeIntervalSince1970: 0))
        #expect(try taken?.filter.search.get().terms == [Term(.names(["video"])), Term(.port([53...53]), negated: true)])
    }
}
