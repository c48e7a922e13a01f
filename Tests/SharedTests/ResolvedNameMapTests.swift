import Fixtures
import Foundation
import Testing
@testable import Shared

@Suite struct ResolvedNameMapTests {
    typealias F = DNSMessageFixture

    static let second: UInt64 = 1_000_000_000
    /// An arbitrary packet-clock start, far from zero.
    static let t0: UInt64 = 5_000 * second
    static let limits = ResolvedNameLimits(capacity: 8, namesPerAddress: 3, minimumLifetime: 60, maximumLifetime: 3_600)

    static func address(_ text: String) -> IPAddress {
        guard let address = IPAddress(parsing: text) else { preconditionFailure(text) }
        return address
    }

    /// A one-answer reply: `name` has address `address`.
    static func reply(_ name: String, _ address: String, ttl: UInt32 = 300) -> DNSMessage {
        let record = address.contains(":") ? F.aaaa(name, address, ttl: ttl) : F.a(name, address, ttl: ttl)
        return F.reply(to: name, type: record.type, answers: [record])
    }

    private func map(_ limits: ResolvedNameLimits = Self.limits) -> ResolvedNameMap { ResolvedNameMap(limits: limits) }

    // MARK: what goes in

    @Test func aReplyRecordsItsAddressesUnderTheNameAsked() {
        var names = map()
        let reply = F.reply(to: "WWW.Example.COM.", answers: [
            F.a("www.example.com", "192.0.2.1"), F.a("WWW.EXAMPLE.COM", "192.0.2.2"),
            F.aaaa("www.example.com", "2001:db8::1"),
        ])
        #expect(names.ingest(reply, at: Self.t0) == .recorded(addresses: 3))
        #expect(names.count == 3)
        for text in ["192.0.2.1", "192.0.2.2", "2001:db8::1"] {
            #expect(names.name(for: Self.address(text), at: Self.t0) == ResolvedName(name: "www.example.com", resolvedAt: Self.t0))
        }
        #expect(names.name(for: Self.address("192.0.2.3"), at: Self.t0) == nil)
    }

    @Test func eachReasonToIgnoreIsReportedInOrder() {
        var names = map()
        let answer = [F.a("example.com", "192.0.2.1")]
        func ignored(_ message: DNSMessage) -> DNSNameIngestion { names.ingest(message, at: Self.t0) }

        var query = F.reply(to: "example.com", answers: answer)
        query.header = DNSHeader(id: 1, isResponse: false, opcode: .notify, responseCode: .refused, questionCount: 1, answerCount: 1)
        #expect(ignored(query) == .ignored(.notAResponse))

        var notify = query
        notify.header = DNSHeader(id: 1, isResponse: true, opcode: .notify, responseCode: .refused, questionCount: 1, answerCount: 1)
        #expect(ignored(notify) == .ignored(.unsupportedOpcode))

        #expect(ignored(F.reply(to: "example.com", responseCode: .nameError, answers: answer)) == .ignored(.errorResponse))
        #expect(ignored(F.reply(to: "example.com", responseCode: .serverFailure, answers: [])) == .ignored(.errorResponse))

        var twoQuestions = F.reply(to: "example.com", answers: answer)
        twoQuestions.questions.append(DNSQuestion(name: F.name("example.net"), type: .a))
        #expect(ignored(twoQuestions) == .ignored(.unsupportedQuestion))
        var noQuestion = twoQuestions
        noQuestion.questions = []
        #expect(ignored(noQuestion) == .ignored(.unsupportedQuestion))
        var chaos = F.reply(to: "example.com", answers: answer)
        chaos.questions[0].recordClass = .chaos
        #expect(ignored(chaos) == .ignored(.unsupportedQuestion))

        for asked in [".", "*.example.com", #"a\046b.example.com"#, #"caf\195\169.example"#] {
            var unusable = F.reply(to: "example.com", answers: [])
            unusable.questions[0].name = F.name(asked)
            unusable.answers = [DNSResourceRecord(name: F.name(asked), type: .a, ttl: 300, data: .a(Self.address("192.0.2.1")))]
            #expect(ignored(unusable) == .ignored(.unusableName), "\(asked)")
        }

        #expect(ignored(F.reply(to: "example.com", answers: [])) == .ignored(.noAddresses))
        let other = DNSResourceRecord(name: F.name("example.com"), type: DNSRecordType(rawValue: 65), ttl: 300, data: .opaque(byteCount: 9))
        #expect(ignored(F.reply(to: "example.com", type: DNSRecordType(rawValue: 65), answers: [other])) == .ignored(.noAddresses))
        // The first reason that applies is the one reported.
        var errorWithTwoQuestions = twoQuestions
        errorWithTwoQuestions.header = DNSHeader(id: 1, isResponse: true, responseCode: .nameError, questionCount: 2, answerCount: 1)
        #expect(ignored(errorWithTwoQuestions) == .ignored(.errorResponse))
        var chaosRoot = chaos
        chaosRoot.questions[0].name = .root
        #expect(ignored(chaosRoot) == .ignored(.unsupportedQuestion))
        #expect(names.count == 0)
        #expect(DNSNameIngestion.Reason.allCases.count == 6)
    }

    @Test func onlyAddressesReachableFromTheQuestionAreRecorded() {
        var names = map()
        let reply = F.reply(to: "app.example.com", answers: [
            F.a("tracker.example.net", "198.51.100.66"),               // owned by another name
            F.cname("app.example.com", "app.cdn.example.net"),
            F.a("app.cdn.example.net", "198.51.100.1"),
            DNSResourceRecord(name: F.name("app.cdn.example.net"), type: .a, recordClass: .chaos, ttl: 300,
                              data: .opaque(byteCount: 4)),
            DNSResourceRecord(name: F.name("app.example.com"), type: .cname, recordClass: .chaos, ttl: 300,
                              data: .cname(F.name("chaos.example.net"))),
            F.a("chaos.example.net", "198.51.100.99"),
        ])
        #expect(names.ingest(reply, at: Self.t0) == .recorded(addresses: 1))
        #expect(names.name(for: Self.address("198.51.100.1"), at: Self.t0)?.name == "app.example.com")
        #expect(names.name(for: Self.address("198.51.100.66"), at: Self.t0) == nil)
        #expect(names.name(for: Self.address("198.51.100.99"), at: Self.t0) == nil)
    }

    // MARK: the CNAME chain

    @Test func aChainIsFollowedInOrderOutOfOrderAndInAnyCase() {
        let inOrder = [
            F.cname("m.example.com", "m.edge.example.net", ttl: 600),
            F.cname("m.edge.example.net", "e7.cdn.example.org", ttl: 600),
            F.a("e7.cdn.example.org", "203.0.113.7", ttl: 600),
        ]
        let scrambled = [
            F.a("E7.cdn.EXAMPLE.org", "203.0.113.7", ttl: 600),
            F.cname("M.Edge.Example.Net", "e7.CDN.example.org", ttl: 600),
            F.cname("m.EXAMPLE.com", "m.edge.example.NET", ttl: 600),
        ]
        for answers in [inOrder, Array(inOrder.reversed()), scrambled] {
            var names = map()
            #expect(names.ingest(F.reply(to: "M.example.COM", answers: answers), at: Self.t0) == .recorded(addresses: 1))
            #expect(names.name(for: Self.address("203.0.113.7"), at: Self.t0)?.name == "m.example.com")
        }
    }

    @Test func aLoopingChainStopsAndKeepsWhatItReached() {
        var names = map()
        let reply = F.reply(to: "loop.example", answers: [
            F.cname("loop.example", "a.loop.example"), F.cname("a.loop.example", "b.loop.example"),
            F.cname("b.loop.example", "LOOP.example"), F.a("b.loop.example", "192.0.2.9"),
        ])
        #expect(names.ingest(reply, at: Self.t0) == .recorded(addresses: 1))
        var selfLoop = map()
        #expect(selfLoop.ingest(F.reply(to: "self.example", answers: [F.cname("self.example", "self.example")]), at: Self.t0)
                == .ignored(.noAddresses))
    }

    @Test func aNamesFirstCNAMEWinsAndTheChainEndsAfterSixteenHops() {
        var names = map()
        let forked = F.reply(to: "fork.example", answers: [
            F.cname("fork.example", "left.example"), F.cname("fork.example", "right.example"),
            F.a("left.example", "192.0.2.10"), F.a("right.example", "192.0.2.20"),
        ])
        #expect(names.ingest(forked, at: Self.t0) == .recorded(addresses: 1))
        #expect(names.name(for: Self.address("192.0.2.10"), at: Self.t0)?.name == "fork.example")
        #expect(names.name(for: Self.address("192.0.2.20"), at: Self.t0) == nil)

        // h0 → h1 → … → hN, hN has the address: reached for N = 16, not for N = 17.
        func chain(_ hops: Int) -> DNSMessage {
            F.reply(to: "h0.example", answers: (0..<hops).map { F.cname("h\($0).example", "h\($0 + 1).example") }
                    + [F.a("h\(hops).example", "192.0.2.\(hops)")])
        }
        #expect(names.ingest(chain(16), at: Self.t0) == .recorded(addresses: 1))
        #expect(names.ingest(chain(17), at: Self.t0) == .ignored(.noAddresses))
    }

    // MARK: lifetime

    @Test func aPairIsLiveUntilTheInstantItExpires() {
        var names = map()
        _ = names.ingest(Self.reply("edge.example", "192.0.2.1", ttl: 300), at: Self.t0)
        let address = Self.address("192.0.2.1")
        #expect(names.name(for: address, at: Self.t0 + 300 * Self.second - 1) != nil)
        #expect(names.name(for: address, at: Self.t0 + 300 * Self.second) == nil)
        #expect(names.removeExpired(at: Self.t0 + 300 * Self.second - 1) == 0 && names.count == 1)
        #expect(names.removeExpired(at: Self.t0 + 300 * Self.second) == 1 && names.count == 0)
    }

    @Test func theShortestTTLOnThePathIsTheLifetime() {
        var names = map()
        let reply = F.reply(to: "via.example", answers: [
            F.cname("via.example", "one.example", ttl: 900),
            F.cname("one.example", "two.example", ttl: 120),
            F.a("two.example", "192.0.2.1", ttl: 1_800),
            F.a("via.example", "192.0.2.2", ttl: 1_000),             // before any CNAME: its own TTL
            F.a("two.example", "192.0.2.3", ttl: 500), F.a("two.example", "192.0.2.3", ttl: 70), // twice: shorter
        ])
        #expect(names.ingest(reply, at: Self.t0) == .recorded(addresses: 3))
        for (text, ttl) in [("192.0.2.1", UInt64(120)), ("192.0.2.2", 1_000), ("192.0.2.3", 70)] {
            #expect(names.name(for: Self.address(text), at: Self.t0 + ttl * Self.second - 1) != nil, "\(text)")
            #expect(names.name(for: Self.address(text), at: Self.t0 + ttl * Self.second) == nil, "\(text)")
        }
    }

    @Test func theLifetimeIsFlooredCappedAndSaturated() {
        var names = map()
        _ = names.ingest(Self.reply("zero.example", "192.0.2.1", ttl: 0), at: Self.t0)
        _ = names.ingest(Self.reply("forever.example", "192.0.2.2", ttl: .max), at: Self.t0)
        #expect(names.name(for: Self.address("192.0.2.1"), at: Self.t0 + 60 * Self.second - 1) != nil)
        #expect(names.name(for: Self.address("192.0.2.1"), at: Self.t0 + 60 * Self.second) == nil)
        #expect(names.name(for: Self.address("192.0.2.2"), at: Self.t0 + 3_600 * Self.second - 1) != nil)
        #expect(names.name(for: Self.address("192.0.2.2"), at: Self.t0 + 3_600 * Self.second) == nil)

        var late = map()
        let nearEnd = UInt64.max - 10 * Self.second
        _ = late.ingest(Self.reply("late.example", "192.0.2.3", ttl: 300), at: nearEnd)
        #expect(late.name(for: Self.address("192.0.2.3"), at: UInt64.max - 1)?.name == "late.example")
        #expect(late.name(for: Self.address("192.0.2.3"), at: UInt64.max) == nil)
    }

    @Test func seeingAPairAgainRenewsItAndMakesItMostRecent() {
        var names = map()
        let address = Self.address("192.0.2.1")
        _ = names.ingest(Self.reply("old.example", "192.0.2.1", ttl: 300), at: Self.t0)
        _ = names.ingest(Self.reply("new.example", "192.0.2.1", ttl: 300), at: Self.t0 + 10 * Self.second)
        #expect(names.name(for: address, at: Self.t0 + 10 * Self.second)?.name == "new.example")
        #expect(names.ingest(Self.reply("old.example", "192.0.2.1", ttl: 300), at: Self.t0 + 200 * Self.second)
                == .recorded(addresses: 1))
        #expect(names.count == 2)
        #expect(names.name(for: address, at: Self.t0 + 200 * Self.second)
                == ResolvedName(name: "old.example", resolvedAt: Self.t0 + 200 * Self.second, otherNames: ["new.example"]))
        // Renewed from t0 + 200 s: alive past its first expiry, and alone once the other expires.
        #expect(names.name(for: address, at: Self.t0 + 400 * Self.second)
                == ResolvedName(name: "old.example", resolvedAt: Self.t0 + 200 * Self.second))
        #expect(names.name(for: address, at: Self.t0 + 500 * Self.second) == nil)
    }

    // MARK: names sharing an address

    @Test func theMostRecentLiveNameWinsInEitherArrivalOrder() {
        let address = Self.address("2001:db8::cd")
        for (first, second) in [("alpha.example", "beta.example"), ("beta.example", "alpha.example")] {
            var names = map()
            _ = names.ingest(Self.reply(first, "2001:db8::cd"), at: Self.t0)
            _ = names.ingest(Self.reply(second, "2001:db8::cd"), at: Self.t0 + 1)
            #expect(names.name(for: address, at: Self.t0 + 2)
                    == ResolvedName(name: second, resolvedAt: Self.t0 + 1, otherNames: [first]))
        }
    }

    @Test func atTheSameInstantTheSmallerNameWinsInEitherArrivalOrder() {
        let address = Self.address("192.0.2.80")
        for order in [["b.example", "a.example", "c.example"], ["c.example", "a.example", "b.example"]] {
            var names = map()
            for name in order { _ = names.ingest(Self.reply(name, "192.0.2.80"), at: Self.t0) }
            #expect(names.name(for: address, at: Self.t0)
                    == ResolvedName(name: "a.example", resolvedAt: Self.t0, otherNames: ["b.example", "c.example"]))
        }
    }

    @Test func anExpiredWinnerGivesWayAndLeavesTheOtherNames() {
        var names = map()
        let address = Self.address("192.0.2.5")
        _ = names.ingest(Self.reply("lasting.example", "192.0.2.5", ttl: 3_000), at: Self.t0)
        _ = names.ingest(Self.reply("brief.example", "192.0.2.5", ttl: 60), at: Self.t0 + Self.second)
        #expect(names.name(for: address, at: Self.t0 + 2 * Self.second)?.otherNames == ["lasting.example"])
        #expect(names.name(for: address, at: Self.t0 + 61 * Self.second)
                == ResolvedName(name: "lasting.example", resolvedAt: Self.t0))
    }

    @Test func anAddressKeepsAtMostItsLimitOfNames() {
        var names = map()                                                 // 3 names an address
        let address = Self.address("192.0.2.44")
        for (index, name) in ["n1.example", "n2.example", "n3.example", "n4.example"].enumerated() {
            _ = names.ingest(Self.reply(name, "192.0.2.44", ttl: 3_000), at: Self.t0 + UInt64(index) * Self.second)
        }
        #expect(names.count == 3)
        #expect(names.name(for: address, at: Self.t0 + 4 * Self.second)?.otherNames == ["n3.example", "n2.example"])
        _ = names.ingest(Self.reply("n5.example", "192.0.2.44", ttl: 60), at: Self.t0 + 5 * Self.second)
        #expect(names.name(for: address, at: Self.t0 + 5 * Self.second)?.otherNames == ["n4.example", "n3.example"])
        // n5 has expired by now: it goes before n3, the least recent live name.
        _ = names.ingest(Self.reply("n6.example", "192.0.2.44", ttl: 3_000), at: Self.t0 + 100 * Self.second)
        #expect(names.count == 3)
        #expect(names.name(for: address, at: Self.t0 + 100 * Self.second)
                == ResolvedName(name: "n6.example", resolvedAt: Self.t0 + 100 * Self.second, otherNames: ["n4.example", "n3.example"]))
    }

    // MARK: capacity

    @Test func aFullMapDropsExpiredPairsFirst() {
        var names = map(ResolvedNameLimits(capacity: 3, namesPerAddress: 2, minimumLifetime: 60, maximumLifetime: 3_600))
        _ = names.ingest(Self.reply("oldest.example", "192.0.2.1", ttl: 3_000), at: Self.t0)
        _ = names.ingest(Self.reply("short.example", "192.0.2.2", ttl: 60), at: Self.t0 + Self.second)
        _ = names.ingest(Self.reply("short2.example", "192.0.2.3", ttl: 60), at: Self.t0 + 2 * Self.second)
        _ = names.ingest(Self.reply("new.example", "192.0.2.4", ttl: 3_000), at: Self.t0 + 100 * Self.second)
        #expect(names.count == 2)
        let now = Self.t0 + 100 * Self.second
        #expect(names.name(for: Self.address("192.0.2.1"), at: now)?.name == "oldest.example")
        #expect(names.name(for: Self.address("192.0.2.4"), at: now)?.name == "new.example")
    }

    @Test func aFullMapWithNothingExpiredEvictsTheLeastRecentlyResolvedPair() {
        var names = map(ResolvedNameLimits(capacity: 3, namesPerAddress: 2, minimumLifetime: 60, maximumLifetime: 3_600))
        _ = names.ingest(Self.reply("a.example", "192.0.2.1"), at: Self.t0)
        _ = names.ingest(Self.reply("b.example", "192.0.2.2"), at: Self.t0 + 1)
        _ = names.ingest(Self.reply("c.example", "192.0.2.3"), at: Self.t0 + 2)
        // Renewing a held pair evicts nothing, and makes it the most recent.
        _ = names.ingest(Self.reply("a.example", "192.0.2.1"), at: Self.t0 + 3)
        #expect(names.count == 3 && names.name(for: Self.address("192.0.2.2"), at: Self.t0 + 3) != nil)
        _ = names.ingest(Self.reply("d.example", "192.0.2.4"), at: Self.t0 + 4)
        #expect(names.count == 3)
        #expect(names.name(for: Self.address("192.0.2.2"), at: Self.t0 + 4) == nil)
        for text in ["192.0.2.1", "192.0.2.3", "192.0.2.4"] {
            #expect(names.name(for: Self.address(text), at: Self.t0 + 4) != nil, "\(text)")
        }
    }

    @Test func theVictimIsTheSameWhateverOrderTheMapWasFilledIn() {
        // Eight pairs resolved at one instant, filled in three orders: the lowest address goes,
        // and at that address the name that loses the tie-break.
        let pairs = (1...7).map { ("n\($0).example", "198.51.100.\(9 - $0)") } + [("m.example", "198.51.100.2")]
        var random = SeededRandom(seed: 9)
        for order in [pairs, pairs.reversed(), pairs.shuffled(using: &random)] {
            var names = map()                                             // capacity 8
            for (name, address) in order { _ = names.ingest(Self.reply(name, address), at: Self.t0) }
            _ = names.ingest(Self.reply("late.example", "203.0.113.1"), at: Self.t0 + 1)
            #expect(names.count == 8)
            // 198.51.100.2 held m.example and n7.example; n7 sorts after m, so n7 is evicted.
            #expect(names.name(for: Self.address("198.51.100.2"), at: Self.t0 + 1)
                    == ResolvedName(name: "m.example", resolvedAt: Self.t0))
            _ = names.ingest(Self.reply("later.example", "203.0.113.2"), at: Self.t0 + 2)
            #expect(names.name(for: Self.address("198.51.100.2"), at: Self.t0 + 2) == nil)
            #expect(names.name(for: Self.address("198.51.100.3"), at: Self.t0 + 2)?.name == "n6.example")
        }
    }

    @Test func aFloodNeverExceedsTheCapacityAndKeepsTheMostRecent() {
        let limits = ResolvedNameLimits(capacity: 64, namesPerAddress: 4, minimumLifetime: 60, maximumLifetime: 86_400)
        var names = map(limits)
        var random = SeededRandom(seed: 2026)
        var last: [(IPAddress, String)] = []
        for index in 0..<5_000 {
            let address = IPAddress(ipv4: 0x0A00_0000 | UInt32(index))
            let name = "host\(random.next() % 1_000).example"
            let extra = F.a(name, IPAddress(ipv4: 0x0B00_0000 | UInt32(random.next() % 200)).description, ttl: 600)
            let reply = F.reply(to: name, answers: [F.a(name, address.description, ttl: UInt32(random.next() % 600)), extra])
            _ = names.ingest(reply, at: Self.t0 + UInt64(index) * Self.second / 10)
            #expect(names.count <= limits.capacity)
            last.append((address, name))
        }
        #expect(names.count == limits.capacity)
        // The last reply's pairs are held, whatever was evicted to make room.
        let now = Self.t0 + 4_999 * Self.second / 10
        let (address, name) = last[4_999]
        #expect(names.name(for: address, at: now)?.name == name)
        // Renewing one pair over and over holds one pair (the queues are compacted behind it).
        var renewed = map(limits)
        for index in 0..<10_000 {
            _ = renewed.ingest(Self.reply("same.example", "192.0.2.1"), at: Self.t0 + UInt64(index))
        }
        #expect(renewed.count == 1 && renewed.name(for: Self.address("192.0.2.1"), at: Self.t0 + 10_000)?.name == "same.example")
    }

    @Test func theTunnelLimitsAreTheSpecs() {
        #expect(ResolvedNameLimits.tunnel == ResolvedNameLimits(capacity: 2_048, namesPerAddress: 4,
                                                                minimumLifetime: 60, maximumLifetime: 86_400))
    }

    // MARK: from the wire

    @Test func aReplyOnTheWireNamesTheAddressItGave() throws {
        let bytes: [UInt8] = [
            0x12, 0x34, 0x81, 0x80,                       // id, response, RD | RA, NOERROR
            0x00, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, // 1 question, 2 answers
            // 12: question "www.example.com" A IN
            0x03, 0x77, 0x77, 0x77, 0x07, 0x65, 0x78, 0x61, 0x6D, 0x70, 0x6C, 0x65, 0x03, 0x63, 0x6F, 0x6D, 0x00,
            0x00, 0x01, 0x00, 0x01,
            // 33: owner → 12, CNAME IN, TTL 300, rdlength 6: "cdn" then a pointer to 16 ("example.com")
            0xC0, 0x0C, 0x00, 0x05, 0x00, 0x01, 0x00, 0x00, 0x01, 0x2C, 0x00, 0x06, 0x03, 0x63, 0x64, 0x6E, 0xC0, 0x10,
            // 51: owner → 45 ("cdn.example.com"), A IN, TTL 90, rdlength 4, 203.0.113.7
            0xC0, 0x2D, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x5A, 0x00, 0x04, 0xCB, 0x00, 0x71, 0x07,
        ]
        let message = try bytes.withUnsafeBytes { raw in
            try Result { () throws(DNSParseError) in try DNSMessageParser.parse(raw) }.get()
        }
        var names = map()
        #expect(names.ingest(message, at: Self.t0) == .recorded(addresses: 1))
        let address = Self.address("203.0.113.7")
        #expect(names.name(for: address, at: Self.t0 + 90 * Self.second - 1) == ResolvedName(name: "www.example.com", resolvedAt: Self.t0))
        #expect(names.name(for: address, at: Self.t0 + 90 * Self.second) == nil)
    }
}
