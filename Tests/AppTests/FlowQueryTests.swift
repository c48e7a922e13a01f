import Foundation
import Shared
import Testing
import TestSupport
@testable import App

/// The search language against flows read back from a real store: each key, lists, ranges,
/// negation, phrases, and addresses and blocks of both families at either end.
@Suite("Flow query: matching")
struct FlowQueryTests {
    typealias H = HistoryFixtures

    static func key(_ proto: IPProtocolNumber, _ from: String, _ fromPort: UInt16, _ to: String, _ toPort: UInt16) -> FlowKey {
        FlowKey(proto: proto, source: IPEndpoint(address: IPAddress(parsing: from)!, port: fromPort),
                destination: IPEndpoint(address: IPAddress(parsing: to)!, port: toPort))
    }

    static func program(_ command: String, _ executable: String?) -> ProgramAttribution {
        .program(ProgramFacts(pid: 4242, command: command, executable: executable, uid: 1000, user: "ana"))
    }

    /// Eight flows, by index:
    /// 0 TCP 198.18.0.2:20000 → 198.18.0.10:443, SNI Video.Example.com, encrypted, curl
    /// 1 UDP 198.18.0.2:20001 → 198.18.0.53:53, DNS dns.example (also cdn.other.net), plaintext, systemd-resolve
    /// 2 TCP [fd00:7::2]:20002 → [fd00:1::80]:8080, no name, not inspectable, socket gone
    /// 3 ICMP 198.18.0.2 → 198.19.1.1 (no ports), plaintext, nobody asked
    /// 4 TCP 198.18.0.2:20004 → 198.18.0.100:80, DNS shop.example, plaintext, Firefox (/usr/lib/firefox/firefox-bin)
    /// 5 UDP 198.18.5.5:5000 ↔ 198.19.0.7:6000, passing by (neither end here), encrypted, not local
    /// 6 ICMPv6 fd00:7::2 → fd00:2::1, plaintext
    /// 7 TCP [fd00:7::2]:20007 → [fdaa::9]:443, SNI video.example.com, inspected, curl
    static func flows() async throws -> [HistoryFlow] {
        func record(_ key: FlowKey, _ status: TLSInspectionStatus, sni: String? = nil, dns: ResolvedFlowName? = nil,
                    program: ProgramAttribution? = nil, at seconds: Double) -> FlowRecord {
            var record = H.record(key, first: seconds, last: seconds + 0.5, status: status, sni: sni, dns: dns)
            record.program = program
            return record
        }
        return try await HistoryFilterTests.flows([
            record(key(.tcp, "198.18.0.2", 20_000, "198.18.0.10", 443), .encrypted, sni: "Video.Example.com",
                   program: program("curl", "/usr/bin/curl"), at: 0),
            record(key(.udp, "198.18.0.2", 20_001, "198.18.0.53", 53), .plaintext,
                   dns: ResolvedFlowName(name: "dns.example", otherNames: ["cdn.other.net"]),
                   program: program("systemd-resolve", "/usr/lib/systemd/systemd-resolved"), at: 1),
            record(key(.tcp, "fd00:7::2", 20_002, "fd00:1::80", 8_080), .notInspectable, program: .socketGone, at: 2),
            record(key(.icmp, "198.18.0.2", 0, "198.19.1.1", 0), .plaintext, at: 3),
            record(key(.tcp, "198.18.0.2", 20_004, "198.18.0.100", 80), .plaintext, dns: ResolvedFlowName(name: "shop.example"),
                   program: program("Firefox", "/usr/lib/firefox/firefox-bin"), at: 4),
            record(key(.udp, "198.18.5.5", 5_000, "198.19.0.7", 6_000), .encrypted, program: .notLocal, at: 5),
            record(key(.icmpv6, "fd00:7::2", 0, "fd00:2::1", 0), .plaintext, at: 6),
            record(key(.tcp, "fd00:7::2", 20_007, "fdaa::9", 443), .inspected, sni: "video.example.com",
                   program: program("curl", "/usr/bin/curl"), at: 7),
        ])
    }

    /// The indices of the flows `text` matches.
    static func matching(_ text: String, _ flows: [HistoryFlow]) throws -> [Int] {
        let query = try FlowQuery(text)
        return flows.indices.filter { query.matches(flows[$0]) }
    }

    @Test("a bare word is a substring of the names and remote address, in any case, as the search always was")
    func bareWords() async throws {
        let flows = try await Self.flows()
        #expect(try Self.matching("video", flows) == [0, 7])
        #expect(try Self.matching("  VIDEO.Example ", flows) == [0, 7])
        #expect(try Self.matching("other.net", flows) == [1])                // another candidate name
        #expect(try Self.matching("198.18.0.1", flows) == [])               // a whole address is exact, not a substring…
        #expect(try Self.matching("198.18.0", flows) == [0, 1, 4])          // …a part of one is text, as the remote address is
        #expect(try Self.matching("fd00:1", flows) == [2])                  // part of an unnamed flow's address
        #expect(try Self.matching("198.19", flows) == [3, 5])               // either end of a flow passing by
        #expect(try Self.matching("nowhere", flows) == [])
    }

    @Test("an empty or blank search matches every flow")
    func emptySearch() async throws {
        let flows = try await Self.flows()
        for text in ["", "   ", "\t\n"] {
            #expect(try FlowQuery(text).isEmpty)
            #expect(try Self.matching(text, flows) == Array(0..<8))
        }
    }

    @Test("host: is the bare word's substring, a comma list is any of them, and it may name an address")
    func hostKey() async throws {
        let flows = try await Self.flows()
        #expect(try Self.matching("host:video", flows) == [0, 7])
        #expect(try Self.matching("HOST:shop,cdn.other", flows) == [1, 4])
        #expect(try Self.matching("host:198.19.0.7", flows) == [5])
        #expect(try Self.matching("host:fd00:1::80", flows) == [2])   // a colon in a key's value is the value's
    }

    @Test("port: a number, a list and a range each match either end's port, of TCP and UDP only")
    func portKey() async throws {
        let flows = try await Self.flows()
        #expect(try Self.matching("port:443", flows) == [0, 7])
        #expect(try Self.matching("port:53,8080", flows) == [1, 2])
        #expect(try Self.matching("port:20000-20002", flows) == [0, 1, 2])    // the machine's end
        #expect(try Self.matching("port:5000", flows) == [5])                   // either end of a flow passing by
        #expect(try Self.matching("port:6000-6000", flows) == [5])
        #expect(try Self.matching("port:0", flows) == [])                       // ICMP has no ports, not port 0
        #expect(try Self.matching("port:0-65535", flows) == [0, 1, 2, 4, 5, 7])
        #expect(try Self.matching("port:00443", flows) == [0, 7])
    }

    @Test("proto: takes what --protocol takes, in any case; icmp means both ICMPs")
    func protoKey() async throws {
        let flows = try await Self.flows()
        #expect(try Self.matching("proto:udp", flows) == [1, 5])
        #expect(try Self.matching("PROTO:TCP", flows) == [0, 2, 4, 7])
        #expect(try Self.matching("proto:icmp", flows) == [3, 6])
        #expect(try Self.matching("proto:icmpv6", flows) == [6])
        #expect(try Self.matching("proto:17,1", flows) == [1, 3, 5])
    }

    @Test("status: takes the identifiers --status takes, in any case")
    func statusKey() async throws {
        let flows = try await Self.flows()
        #expect(try Self.matching("status:plaintext", flows) == [1, 3, 4, 6])
        #expect(try Self.matching("Status:NOTINSPECTABLE,inspected", flows) == [2, 7])
        #expect(try Self.matching("status:inspectionFailed", flows) == [])
    }

    @Test("program: names a program by its command or its executable's file name, A-Z in any case, as --program does")
    func programKey() async throws {
        let flows = try await Self.flows()
        #expect(try Self.matching("program:curl", flows) == [0, 7])
        #expect(try Self.matching("program:CURL", flows) == [0, 7])
        #expect(try Self.matching("program:firefox", flows) == [4])            // the command
        #expect(try Self.matching("program:firefox-bin", flows) == [4])        // the executable's file name
        #expect(try Self.matching("program:systemd-resolved,curl", flows) == [0, 1, 7])
        #expect(try Self.matching("program:fire", flows) == [])                 // a name, not a substring
        #expect(try Self.matching("-program:curl", flows) == [1, 2, 3, 4, 5, 6])   // and those nobody named
    }

    @Test("ja4: is a JA4 whole or its first parts whole; ja3: and ja3s: are the hashes; a flow without them matches none")
    func fingerprints() throws {
        let client = ClientHelloFingerprints(ja4: "t13d1516h2_8daaf6152771_e5627efa2ab1",
                                             ja3Full: "771,4865,0,29,0", ja3: "ada70206e40642a3e4461f35503241d5")
        let server = ServerHelloFingerprints(ja3sFull: "771,4865,43", ja3s: "eb1d94daa7e0344597e756a1fb6e7054")
        let key = Self.key(.tcp, "198.18.0.2", 20_000, "198.18.0.10", 443)
        let printed = HistoryFlow(StoredFlow(id: 1, key: key, firstSeen: Date(timeIntervalSince1970: 0),
                                                            tlsStatus: .encrypted, clientTLS: ClientTLSOffer(versions: .upTo(.tls12)),
                                                            clientFingerprints: client, serverFingerprints: server))
        let bare = HistoryFlow(StoredFlow(id: 2, key: key, firstSeen: Date(timeIntervalSince1970: 0), tlsStatus: .encrypted))
        let flows = [printed, bare]
        for text in ["ja4:t13d1516h2_8daaf6152771_e5627efa2ab1", "ja4:t13d1516h2", "ja4:T13D1516H2_8daaf6152771",
                     "ja4:q13d0310h3,t13d1516h2", "ja3:ada70206e40642a3e4461f35503241d5", "ja3s:EB1D94DAA7E0344597E756A1FB6E7054"] {
            #expect(try Self.matching(text, flows) == [0], "\(text)")
        }
        // A piece of a part is no part: t13d matches nothing, nor does a hash of another hello.
        for text in ["ja4:t13d", "ja4:t13d1516h2_8daa", "ja4:8daaf6152771", "ja3:de350869b8c85de67a350c8d186f11e6"] {
            #expect(try Self.matching(text, flows) == [], "\(text)")
        }
        #expect(try Self.matching("-ja4:t13d1516h2", flows) == [1])
    }

    @Test("an IPv4 or IPv6 address matches either end exactly, however it is written")
    func addresses() async throws {
        let flows = try await Self.flows()
        #expect(try Self.matching("198.18.0.10", flows) == [0])                 // not 198.18.0.100
        #expect(try Self.matching("198.18.0.100", flows) == [4])
        #expect(try Self.matching("198.18.0.2", flows) == [0, 1, 3, 4])           // the machine's end
        #expect(try Self.matching("198.18.5.5", flows) == [5])
        #expect(try Self.matching("fd00:1::80", flows) == [2])
        #expect(try Self.matching("FD00:0001:0:0::0080", flows) == [2])         // RFC 5952 or not
        #expect(try Self.matching("fd00:7::2", flows) == [2, 6, 7])
        #expect(try Self.matching("::ffff:198.18.0.10", flows) == [])           // a mapped address is IPv6
    }

    @Test("a CIDR block of either family matches a flow with either end inside it; host bits are ignored")
    func blocks() async throws {
        let flows = try await Self.flows()
        #expect(try Self.matching("198.18.0.0/24", flows) == [0, 1, 3, 4])   // the machine's end is an end too
        #expect(try Self.matching("198.18.0.0/15", flows) == [0, 1, 3, 4, 5])
        #expect(try Self.matching("198.18.77.1/15", flows) == [0, 1, 3, 4, 5])
        #expect(try Self.matching("198.19.0.0/16", flows) == [3, 5])
        #expect(try Self.matching("198.18.0.10/32", flows) == [0])
        #expect(try Self.matching("0.0.0.0/0", flows) == [0, 1, 3, 4, 5])       // every IPv4 flow, no IPv6 one
        #expect(try Self.matching("fd00::/8", flows) == [2, 6, 7])
        #expect(try Self.matching("fd00:1::/32", flows) == [2])
        #expect(try Self.matching("fdaa::/16", flows) == [7])
        #expect(try Self.matching("fd00:7::2/128", flows) == [2, 6, 7])
        #expect(try Self.matching("::/0", flows) == [2, 6, 7])
        #expect(try Self.matching("198.18.0.0/30", flows) == [0, 1, 3, 4])
        #expect(try Self.matching("198.18.0.64/26", flows) == [4])
    }

    @Test("terms all hold; - before any term keeps the flows it does not hold for")
    func andAndNegation() async throws {
        let flows = try await Self.flows()
        #expect(try Self.matching("video port:443", flows) == [0, 7])
        #expect(try Self.matching("video proto:tcp fd00::/8", flows) == [7])
        #expect(try Self.matching("video -port:443", flows) == [])
        #expect(try Self.matching("-host:example", flows) == [2, 3, 5, 6])
        #expect(try Self.matching("-video", flows) == [1, 2, 3, 4, 5, 6])
        #expect(try Self.matching("-198.18.0.0/15 -fd00::/8", flows) == [])
        #expect(try Self.matching("-198.18.0.0/24", flows) == [2, 5, 6, 7])
        #expect(try Self.matching("-198.18.0.64/26", flows) == [0, 1, 2, 3, 5, 6, 7])
        #expect(try Self.matching("-198.18.0.10", flows) == [1, 2, 3, 4, 5, 6, 7])
        #expect(try Self.matching("proto:tcp -status:encrypted", flows) == [2, 4, 7])
        #expect(try Self.matching("-proto:tcp,udp", flows) == [3, 6])
        #expect(try Self.matching("-port:443 -proto:icmp", flows) == [1, 2, 4, 5])   // ICMP holds no port, so -port keeps it
    }

    @Test("a quoted phrase is one term with its spaces and commas; a key inside quotes is text")
    func phrases() async throws {
        let flows = try await Self.flows()
        #expect(try Self.matching("video example", flows) == [0, 7])        // two words, each somewhere
        #expect(try Self.matching("\"video example\"", flows) == [])        // one phrase, in no name
        #expect(try Self.matching("\"cdn.other\"", flows) == [1])
        #expect(try Self.matching("-\"video\"", flows) == [1, 2, 3, 4, 5, 6])
        #expect(try Self.matching("host:cdn.other,nothing", flows) == [1])
        #expect(try Self.matching("host:\"cdn.other,nothing\"", flows) == [])   // the comma is the phrase's
        #expect(try Self.matching("\"port:443\"", flows) == [])                 // text, not a key
        #expect(try Self.matching("v\"ideo.ex\"ample", flows) == [0, 7])        // quotes inside a word join it
        #expect(try Self.matching("\"198.18.0.10\"", flows) == [0, 4])          // quoted: a substring (.100 too), not an address
    }

    @Test("the filter reads its search once, as it is set; a refused one is active and matches nothing")
    func filterReadsOnce() async throws {
        let flows = try await Self.flows()
        var filter = HistoryFilter(searchText: "port:443")
        #expect(try filter.search.get().terms == [FlowQuery.Term(.port([443...443]))])
        #expect(flows.indices.filter { filter.matches(flows[$0]) } == [0, 7])
        filter.searchText = "port:https"
        #expect(throws: FlowQueryError("port:https", .badPort("https"))) { try filter.search.get() }
        #expect(filter.isActive && filter.isSearching && !flows.contains(where: filter.matches))
        filter.searchText = "  "
        #expect(!filter.isActive && !filter.isSearching && flows.allSatisfy(filter.matches))
    }

    @Test("the store narrows by the status: and program: terms that must hold, and by none that are negated")
    func storeNarrowing() {
        func filter(_ text: String, statuses: Set<TLSInspectionStatus> = [], programs: Set<String> = []) -> HistoryFilter {
            var filter = HistoryFilter(searchText: text, tlsStatuses: statuses)
            filter.programs = programs
            return filter
        }
        #expect(filter("status:plaintext,inspected").storeStatuses == [.plaintext, .inspected])
        #expect(filter("status:plaintext,inspected status:INSPECTED").storeStatuses == [.inspected])
        #expect(filter("status:plaintext,inspected", statuses: [.plaintext, .encrypted]).storeStatuses == [.plaintext])
        #expect(filter("-status:plaintext").storeStatuses.isEmpty)
        #expect(filter("-status:plaintext", statuses: [.encrypted]).storeStatuses == [.encrypted])
        #expect(filter("status:plaintext status:encrypted").storeStatuses.isEmpty)   // none can match: matches refuses each row
        #expect(filter("program:curl,Firefox program:wget").storePrograms == ["curl", "firefox"])
        #expect(filter("-program:curl").storePrograms.isEmpty)
        #expect(filter("program:curl", programs: ["wget"]).storePrograms == ["wget"])
        #expect(filter("port:x").storeStatuses.isEmpty && filter("port:x").storePrograms.isEmpty)
    }
}
