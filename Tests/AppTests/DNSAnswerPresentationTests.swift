import App
import Fixtures
import Foundation
import Shared
import Testing

@Suite struct DNSAnswerPresentationTests {
    typealias F = DNSMessageFixture

    /// What the packet screen reads of `message` sent over UDP on port 53, cut at `keep` bytes.
    static func reading(_ message: DNSMessage, keep: Int? = nil, payload: [UInt8]? = nil) throws -> DNSAnswerPresentation? {
        let bytes = try PacketEmitter.udp(source: IPEndpoint(address: TunnelAddressing.ipv4Address, port: 53_000),
                                          destination: IPEndpoint(address: IPAddress(parsing: "198.18.0.53")!, port: 53),
                                          payload: Data(payload ?? F.encode(message)))
        let kept = Array(bytes.prefix(keep ?? bytes.count))
        let record = CaptureRecord(header: .init(tsSec: 0, tsFraction: 0, inclLen: UInt32(kept.count), origLen: UInt32(bytes.count)),
                                   bytes: kept)
        return DNSAnswerPresentation.read(record, headers: try PacketHeaders.read(record).get())
    }

    @Test("a query says what was looked up and for which record type")
    func query() throws {
        let reading = try Self.reading(F.query(for: "example.test", type: .aaaa))
        #expect(reading == .query(lookedUp: "example.test", recordType: "AAAA"))
        #expect(reading?.lines.map(\.value).contains("example.test  record type AAAA") == true)
    }

    @Test("a response lists its addresses, names and the records not decoded")
    func answers() throws {
        let reply = F.reply(to: "www.example.test", answers: [
            F.cname("www.example.test", "edge.example.test"), F.a("edge.example.test", "198.18.0.7"),
            F.a("edge.example.test", "198.18.0.8"),
            DNSResourceRecord(name: F.name("edge.example.test"), type: .txt, ttl: 1, data: .opaque(byteCount: 6)),
        ])
        let reading = try Self.reading(reply)
        guard case let .response(name, type, answers)? = reading else { Issue.record("\(String(describing: reading))"); return }
        #expect(name == "www.example.test" && type == "A")
        #expect(answers.addresses == ["198.18.0.7", "198.18.0.8"] && answers.names == ["edge.example.test"])
        #expect(answers.undecoded == 1 && answers.none == nil)
    }

    @Test("no such name (NXDOMAIN) is never conflated with no records of that type (NOERROR, no answer)")
    func noAnswers() throws {
        let nx = try Self.reading(F.reply(to: "gone.example.test", responseCode: .nameError, answers: []))
        let empty = try Self.reading(F.reply(to: "v4only.example.test", type: .aaaa, answers: []))
        let failed = try Self.reading(F.reply(to: "x.example.test", responseCode: .serverFailure, answers: []))
        guard case let .response(_, _, nxAnswers)? = nx, case let .response(_, _, emptyAnswers)? = empty,
              case let .response(_, _, failedAnswers)? = failed else { Issue.record("not responses"); return }
        #expect(nxAnswers.none == .noSuchName && emptyAnswers.none == .noRecordsOfThatType)
        #expect(failedAnswers.none == .failed("SERVFAIL"))
        #expect(nx?.lines.last?.value == "no such name (NXDOMAIN)")
        #expect(empty?.lines.last?.value == "no records of that type (the name exists)")
    }

    @Test("unreadable: the capture kept too little, apart from a whole datagram that is not DNS")
    func unreadable() throws {
        let reply = F.reply(to: "www.example.test", answers: [F.a("www.example.test", "198.18.0.7")])
        #expect(try Self.reading(reply, keep: 20 + 8 + 20) == .keptTooLittle)
        let garbage = try Self.reading(reply, payload: [0x12, 0x34, 0x81, 0x80, 0, 5, 0, 0, 0, 0, 0, 0, 3, 0x61])
        guard case .notDNS? = garbage else { Issue.record("\(String(describing: garbage))"); return }
        #expect(garbage?.lines.first?.value.hasPrefix("unreadable: not a DNS message") == true)
    }
}
