import Fixtures
import Foundation
import Testing
@testable import Shared

@Suite struct DNSMessageParserTests {
    typealias F = DNSMessageFixture

    private func parse(_ bytes: [UInt8]) throws(DNSParseError) -> DNSMessage {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(DNSParseError) in try DNSMessageParser.parse(raw) }
        }
        return try result.get()
    }

    private func error(_ bytes: [UInt8]) -> DNSParseError? {
        do { _ = try parse(bytes); return nil } catch { return error }
    }

    private static func ascii(_ text: StaticString) -> [UInt8] {
        Array(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Header: id 0xABCD, flags, then QDCOUNT and ANCOUNT (NSCOUNT, ARCOUNT zero).
    private static func header(flags: UInt16 = 0x8180, questions: UInt8 = 1, answers: UInt8 = 0) -> [UInt8] {
        [0xAB, 0xCD, UInt8(flags >> 8), UInt8(flags & 0xFF), 0, questions, 0, answers, 0, 0, 0, 0]
    }

    /// Type A, class IN.
    private static let typeAClassIN: [UInt8] = [0x00, 0x01, 0x00, 0x01]

    // MARK: ordinary messages, every field

    @Test func aReplyWithACompressedAnswerReadsEveryField() throws {
        let bytes: [UInt8] = [
            0xAB, 0xCD,                                   // id
            0x81, 0x80,                                   // QR, opcode 0, RD | RA, NOERROR
            0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, // 1 question, 1 answer
            // question at 12: 7 "example" 3 "com" 0, type A, class IN
            0x07, 0x65, 0x78, 0x61, 0x6D, 0x70, 0x6C, 0x65, 0x03, 0x63, 0x6F, 0x6D, 0x00,
            0x00, 0x01, 0x00, 0x01,
            // answer: pointer to 12, type A, class IN, TTL 3600, rdlength 4, 93.184.216.34
            0xC0, 0x0C, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x0E, 0x10, 0x00, 0x04, 0x5D, 0xB8, 0xD8, 0x22,
        ]
        let message = try parse(bytes)
        #expect(message.header.id == 0xABCD && message.header.flags == 0x8180)
        #expect(message.header.isResponse && message.header.opcode == .query && !message.header.isAuthoritative)
        #expect(!message.header.isTruncated && message.header.recursionDesired && message.header.recursionAvailable)
        #expect(message.header.responseCode == .noError)
        #expect(message.header.questionCount == 1 && message.header.answerCount == 1)
        #expect(message.questions == [DNSQuestion(name: F.name("example.com"), type: .a, recordClass: .internet)])
        #expect(message.answers.count == 1)
        let answer = try #require(message.answers.first)
        #expect(answer.name.description == "example.com" && answer.type == .a && answer.recordClass == .internet)
        #expect(answer.ttl == 3600 && answer.data == .a(IPAddress(ipv4: 0x5DB8_D822)))
        #expect(answer.data.address?.description == "93.184.216.34")
    }

    @Test func everyHeaderBitIsReadWhereRFC1035PutsIt() throws {
        // QR 1 · opcode 0 · AA 1 · TC 1 · RD 1 | RA 1 · Z 0 · RCODE 3 (NXDOMAIN); no question.
        let error = try parse(Self.header(flags: 0x8783, questions: 0)).header
        #expect(error.isResponse && error.isAuthoritative && error.isTruncated && error.recursionDesired)
        #expect(error.recursionAvailable && error.responseCode == .nameError && error.opcode == .query)
        // QR 0 · opcode 5 (UPDATE) · everything else clear.
        let update = try parse(Self.header(flags: 0x2800, questions: 0)).header
        #expect(!update.isResponse && update.opcode == .update && update.opcode.description == "UPDATE")
        #expect(!update.isAuthoritative && !update.isTruncated && !update.recursionDesired && !update.recursionAvailable)
        #expect(update.responseCode == .noError)
        // The named-bit initializer writes the same flags.
        #expect(DNSHeader(id: 0, isResponse: true, isAuthoritative: true, isTruncated: true, responseCode: .nameError,
                          questionCount: 0, answerCount: 0).flags == 0x8783)
    }

    @Test func theAuthorityAndAdditionalSectionsAreNotWalked() throws {
        // ARCOUNT 1, then bytes that are no record at all: never read.
        var bytes = Self.header(questions: 0)
        bytes[11] = 1
        bytes += [0xFF, 0xFF, 0xFF]
        let message = try parse(bytes)
        #expect(message.header.additionalCount == 1 && message.questions.isEmpty && message.answers.isEmpty)
    }

    @Test func aFixtureMessageParsesBackToItself() throws {
        let message = F.reply(id: 7, to: "www.example.org", answers: [
            F.cname("www.example.org", "edge.cdn.example.net", ttl: 120),
            F.cname("edge.cdn.example.net", "e1.cdn.example.net", ttl: 60),
            F.a("e1.cdn.example.net", "203.0.113.10", ttl: 20),
            F.aaaa("e1.cdn.example.net", "2001:db8::a", ttl: 20),
            DNSResourceRecord(name: F.name("www.example.org"), type: DNSRecordType(rawValue: 65), ttl: 300,
                              data: .opaque(byteCount: 7)),
        ])
        let bytes = F.encode(message)
        #expect(try parse(bytes) == message)
        // The first answer's owner is a pointer to the question at offset 12.
        let questionEnd = 12 + F.name("www.example.org").wireLength + 4
        #expect(Array(bytes[questionEnd..<(questionEnd + 2)]) == [0xC0, 0x0C])
    }

    @Test func everyProperPrefixOfAMessageIsTruncated() {
        let bytes = F.encode(F.reply(to: "example.com", answers: [
            F.cname("example.com", "a.example.net"), F.a("a.example.net", "192.0.2.1"),
        ]))
        for length in 0..<bytes.count {
            #expect(error(Array(bytes[..<length])) == .truncated, "prefix of \(length) bytes")
        }
        #expect(error(bytes) == nil)
    }

    @Test func aSliceWithANonZeroStartIndexCountsPointersFromItsOwnStart() throws {
        let message = F.reply(to: "slice.example", answers: [F.a("slice.example", "198.51.100.4")])
        let payload = Data([0xEE, 0xEE, 0xEE, 0xEE, 0xEE] + F.encode(message) + [0xEE])
        let slice = payload[5..<(payload.count - 1)]
        #expect(slice.startIndex == 5)
        #expect(try DNSMessageParser.parse(slice) == message)
    }

    // MARK: records read, and records only kept as opaque

    @Test func anUnknownTypeIsKeptAsItsSizeAndShownAsTYPE64() throws {
        let bytes = Self.header(answers: 1) + [0x00] + Self.typeAClassIN + [
            0x00,                                         // owner: the root
            0x00, 0x40, 0x00, 0x01,                       // type 64, class IN
            0x00, 0x00, 0x00, 0x05, 0x00, 0x03, 0x01, 0x02, 0x03, // TTL 5, rdlength 3, rdata
        ]
        let answer = try #require(try parse(bytes).answers.first)
        #expect(answer.data == .opaque(byteCount: 3) && answer.type.description == "TYPE64" && answer.ttl == 5)
        #expect(answer.name.isRoot && answer.recordClass.description == "IN")
    }

    @Test func aReadTypeWithTheWrongLengthOrClassIsOpaque() throws {
        let bytes = Self.header(answers: 4) + [0x00] + Self.typeAClassIN + [
            0x00, 0x00, 0x01, 0x00, 0x01, 0, 0, 0, 1, 0x00, 0x05, 1, 2, 3, 4, 5, // A, 5 bytes
            0x00, 0x00, 0x1C, 0x00, 0x01, 0, 0, 0, 1, 0x00, 0x04, 1, 2, 3, 4,    // AAAA, 4 bytes
            0x00, 0x00, 0x01, 0x00, 0x03, 0, 0, 0, 1, 0x00, 0x04, 1, 2, 3, 4,    // A in class CH
            0x00, 0x00, 0x05, 0x00, 0x01, 0, 0, 0, 1, 0x00, 0x03, 0x01, 0x61, 0x00, // CNAME "a"
        ]
        let data = try parse(bytes).answers.map(\.data)
        #expect(data == [.opaque(byteCount: 5), .opaque(byteCount: 4), .opaque(byteCount: 4), .cname(F.name("a"))])
    }

    @Test func aCNAMEWhoseNameDoesNotFillItsRdataExactlyIsOpaque() throws {
        let bytes = Self.header(answers: 4) + [0x00] + Self.typeAClassIN + [
            // rdlength 4 holds "a" and the root, plus one byte more
            0x00, 0x00, 0x05, 0x00, 0x01, 0, 0, 0, 1, 0x00, 0x04, 0x01, 0x61, 0x00, 0xFF,
            // rdlength 2: a pointer to 0x3FFF, forward
            0x00, 0x00, 0x05, 0x00, 0x01, 0, 0, 0, 1, 0x00, 0x02, 0xFF, 0xFF,
            // rdlength 3: "a", then a label of length 1 whose byte is the next record's owner
            0x00, 0x00, 0x05, 0x00, 0x01, 0, 0, 0, 1, 0x00, 0x03, 0x01, 0x61, 0x01,
            // the next record, read from where the rdlength said: root, A, IN, TTL 1, 1.2.3.4
            0x00, 0x00, 0x01, 0x00, 0x01, 0, 0, 0, 1, 0x00, 0x04, 1, 2, 3, 4,
        ]
        let data = try parse(bytes).answers.map(\.data)
        #expect(data == [.opaque(byteCount: 4), .opaque(byteCount: 2), .opaque(byteCount: 3), .a(IPAddress(ipv4: 0x0102_0304))])
    }

    // MARK: hostile names

    @Test func aPointerToItselfIsRefused() {
        // question at 12: a pointer to 12
        #expect(error(Self.header() + [0xC0, 0x0C] + Self.typeAClassIN) == .pointerNotBackward)
    }

    @Test func aPointerForwardIsRefused() {
        // question at 12: a pointer to 18 (past itself), where a real name sits
        #expect(error(Self.header() + [0xC0, 0x12] + Self.typeAClassIN + [0x01, 0x61, 0x00]) == .pointerNotBackward)
    }

    @Test func aPointerBackIntoItsOwnNameIsRefused() {
        // question at 12: "a", then a pointer to 12 — a.a.a.… if followed
        #expect(error(Self.header() + [0x01, 0x61, 0xC0, 0x0C] + Self.typeAClassIN) == .pointerNotBackward)
    }

    /// Answer 1 (root owner, TYPE65280) carries `rdata` at offset 30; answer 2's owner is a
    /// pointer to 30, so the name there is read after one jump.
    private static func nameAfterAJump(_ rdata: [UInt8]) -> [UInt8] {
        header(answers: 2) + [0x01, 0x61, 0x00] + typeAClassIN               // question "a" at 12..18
            + [0x00, 0xFF, 0x00, 0x00, 0x01, 0, 0, 0, 1, 0x00, UInt8(rdata.count)] + rdata // 19; rdata at 30
            + [0xC0, 0x1E] + typeAClassIN + [0, 0, 0, 1, 0x00, 0x04, 192, 0, 2, 1]
    }

    @Test func aPointerMustLandBeforeThePreviousJump() throws {
        // At 30: "d", "e", then a pointer to 12: "d.e.a".
        let good = try parse(Self.nameAfterAJump([0x01, 0x64, 0x01, 0x65, 0xC0, 0x0C]))
        #expect(good.answers.count == 2 && good.answers[1].name.description == "d.e.a")
        // At 30: "d", "e", then a pointer to 32 ("e" again). Backward of where it is written (34),
        // but not before the previous jump (30): followed, it would read e.e.e.… forever.
        #expect(error(Self.nameAfterAJump([0x01, 0x64, 0x01, 0x65, 0xC0, 0x20])) == .pointerNotBackward)
        // At 30: "d", then a pointer to 30 itself.
        #expect(error(Self.nameAfterAJump([0x01, 0x64, 0xC0, 0x1E])) == .pointerNotBackward)
    }

    /// Answer 1 is an unknown-type record whose rdata holds `links` pointers, each to the one
    /// before it, the first to the question at 12; answer 2's owner points to the last of them,
    /// so it takes `links + 1` jumps. With `pointingBack`, answer 3's owner points to answer 2's
    /// owner: one jump more.
    private static func pointerChain(links: Int, pointingBack: Bool = false) -> [UInt8] {
        var bytes = header(answers: pointingBack ? 3 : 2) + [0x01, 0x61, 0x00] + typeAClassIN // question "a" at 12..18
        bytes += [0xC0, 0x0C, 0xFF, 0x00, 0x00, 0x01, 0, 0, 0, 1, 0x00, UInt8(2 * links)] // owner → 12, TYPE65280
        let first = bytes.count                                              // 31
        for link in 0..<links {
            let target = link == 0 ? 12 : first + 2 * (link - 1)
            bytes += [0xC0, UInt8(target)]
        }
        let second = bytes.count
        bytes += [0xC0, UInt8(first + 2 * (links - 1))] + typeAClassIN + [0, 0, 0, 1, 0x00, 0x04, 192, 0, 2, 1]
        if pointingBack {
            bytes += [0xC0, UInt8(second)] + typeAClassIN + [0, 0, 0, 1, 0x00, 0x04, 192, 0, 2, 2]
        }
        return bytes
    }

    @Test func thirtyTwoJumpsAreFollowedAndThirtyThreeRefused() throws {
        let message = try parse(Self.pointerChain(links: 31))
        #expect(message.answers.count == 2 && message.answers[1].name.description == "a")
        #expect(message.answers[1].data == .a(IPAddress(ipv4: 0xC000_0201)))
        #expect(error(Self.pointerChain(links: 32)) == .tooManyPointers)
        // The same limit through a pointer to a name already read (which the parser reuses).
        #expect(try parse(Self.pointerChain(links: 30, pointingBack: true)).answers.map(\.name.description) == ["a", "a", "a"])
        #expect(error(Self.pointerChain(links: 31, pointingBack: true)) == .tooManyPointers)
    }

    @Test func reservedLabelTypesAreRefused() {
        #expect(error(Self.header() + [0x41, 0x61, 0x00] + Self.typeAClassIN) == .reservedLabelType(0x41))
        #expect(error(Self.header() + [0x80, 0x00] + Self.typeAClassIN) == .reservedLabelType(0x80))
        #expect(error(Self.header() + [0x01, 0x61, 0xBF, 0x00] + Self.typeAClassIN) == .reservedLabelType(0xBF))
    }

    /// A question whose name has labels of these lengths (filled with "x").
    private static func question(labels: [Int]) -> [UInt8] {
        header() + labels.flatMap { [UInt8($0)] + [UInt8](repeating: 0x78, count: $0) } + [0x00] + typeAClassIN
    }

    @Test func aNameOf255BytesIsReadAnd256Refused() throws {
        // 3 × (1 + 63) + (1 + 61) + root = 255
        let longest = try parse(Self.question(labels: [63, 63, 63, 61])).questions[0].name
        #expect(longest.wireLength == 255 && longest.labels.map(\.count) == [63, 63, 63, 61])
        #expect(error(Self.question(labels: [63, 63, 63, 62])) == .nameTooLong)
        #expect(error(Self.question(labels: [63, 63, 63, 63, 63])) == .nameTooLong)
    }

    @Test func aNameMadeTooLongThroughAPointerIsRefused() {
        // question: 3 labels of 63 (193 bytes with root); answer owner: a 63-byte label, then a
        // pointer to the question — 64 + 193 = 257 bytes.
        var bytes = Self.question(labels: [63, 63, 63])
        bytes[7] = 1                                                         // ANCOUNT 1
        bytes += [63] + [UInt8](repeating: 0x79, count: 63) + [0xC0, 0x0C] + Self.typeAClassIN + [0, 0, 0, 1, 0, 0]
        #expect(error(bytes) == .nameTooLong)
    }

    // MARK: lying lengths

    @Test func aLabelPastTheEndIsTruncated() {
        #expect(error(Self.header() + [0x0A, 0x61, 0x62, 0x63]) == .truncated)  // 10 promised, 3 present
        #expect(error(Self.header() + [0x01, 0x61]) == .truncated)              // no root byte
        #expect(error(Self.header() + [0xC0]) == .truncated)                    // half a pointer
        #expect(error(Self.header() + [0x00, 0x00, 0x01, 0x00]) == .truncated)  // class cut
    }

    @Test func aLyingRdlengthIsTruncated() {
        // root owner, type A, class IN, TTL 1, rdlength 200 — and only 4 bytes follow
        let bytes = Self.header(answers: 1) + [0x00] + Self.typeAClassIN
            + [0x00, 0x00, 0x01, 0x00, 0x01, 0, 0, 0, 1, 0x00, 0xC8, 1, 2, 3, 4]
        #expect(error(bytes) == .truncated)
        #expect(error(Array(bytes[..<(bytes.count - 6)])) == .truncated)     // fixed fields cut
    }

    @Test func aHeaderPromisingMoreThanIsPresentIsTruncated() {
        let oneAnswer = [0x00] + Self.typeAClassIN + [0x00, 0x00, 0x01, 0x00, 0x01, 0, 0, 0, 1, 0x00, 0x04, 1, 2, 3, 4]
        #expect(error(Self.header(answers: 1) + oneAnswer) == nil)
        #expect(error(Self.header(answers: 2) + oneAnswer) == .truncated)   // a snaplen cut looks like this
        #expect(error(Self.header(questions: 2, answers: 0) + [0x00] + Self.typeAClassIN) == .truncated)
        #expect(error(Self.header(questions: 0xFF, answers: 0xFF)) == .truncated)
        #expect(error(Array(Self.header()[..<11])) == .truncated)
        #expect(error([]) == .truncated)
    }

    // MARK: presentation

    @Test func labelBytesThatCouldForgeStructureAreEscapedInDecimal() throws {
        let bytes = Self.header() + [
            0x03, 0x61, 0x2E, 0x62,                       // "a.b"
            0x03, 0x63, 0x5C, 0x64,                       // "c\d"
            0x03, 0x20, 0x00, 0xFF,                       // space, NUL, 0xFF
            0x0D] + Self.ascii("xn--bcher-kva") + [      // IDN stays as sent
            0x00] + Self.typeAClassIN
        let name = try parse(bytes).questions[0].name
        #expect(name.description == #"a\046b.c\092d.\032\000\255.xn--bcher-kva"#)
        #expect(name.labels.count == 4 && name.normalizedDomain == nil)
        #expect(DNSName(name.description) == name)
    }

    @Test func theRootNameIsShownAsADot() throws {
        let message = try parse(Self.header() + [0x00, 0x00, 0x02, 0x00, 0x01])   // ". NS IN"
        let question = try #require(message.questions.first)
        #expect(question.name.isRoot && question.name.description == "." && question.name.wireLength == 1)
        #expect(question.type == .ns && question.type.description == "NS")
    }

    // MARK: robustness

    @Test func randomBytesAndBitFlipsNeverTrapAndCountsAlwaysMatch() {
        var random = SeededRandom(seed: 53)
        let seeds = [
            F.encode(F.reply(to: "www.example.org", answers: [
                F.cname("www.example.org", "edge.example.net"), F.a("edge.example.net", "192.0.2.7"),
                F.aaaa("edge.example.net", "2001:db8::7"),
            ])),
            Self.pointerChain(links: 31),
        ]
        var parsed = 0
        var refused = 0
        for round in 0..<20_000 {
            var bytes: [UInt8]
            if round % 4 == 0 {
                bytes = (0..<Int(random.next() % 80)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            } else {
                bytes = seeds[round % seeds.count]
                for _ in 0..<(1 + random.next() % 3) {
                    let bit = Int(random.next() % UInt64(bytes.count * 8))
                    bytes[bit / 8] ^= 1 << (bit % 8)
                }
            }
            switch bytes.withUnsafeBytes({ raw in Result { () throws(DNSParseError) in try DNSMessageParser.parse(raw) } }) {
            case let .success(message):
                parsed += 1
                #expect(message.questions.count == Int(message.header.questionCount))
                #expect(message.answers.count == Int(message.header.answerCount))
                #expect(message.answers.allSatisfy { $0.name.wireLength <= DNSName.wireLimit })
            case .failure:
                refused += 1
            }
        }
        #expect(parsed > 1_000 && refused > 1_000)
    }
}
