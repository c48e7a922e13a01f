import Fixtures
import Foundation
import TestSupport
import Testing
@testable import Shared

/// tshark reads DNS replies built by `DNSMessageFixture` and must agree with `DNSMessageParser` on
/// the names asked and on every A, AAAA and CNAME answer, in order, frame by frame.
@Suite(.serialized) struct DNSTsharkOracleTests {
    typealias F = DNSMessageFixture

    static let fields = ["frame.number", "dns.id", "dns.qry.name", "dns.a", "dns.aaaa", "dns.cname",
                         "dns.count.answers", "dns.resp.ttl", "_ws.malformed"]

    static let replies: [DNSMessage] = [
        F.reply(id: 1, to: "example.com", answers: [F.a("example.com", "93.184.216.34", ttl: 3_600),
                                                    F.a("example.com", "93.184.216.35", ttl: 3_600)]),
        F.reply(id: 2, to: "www.example.org", answers: [
            F.cname("www.example.org", "edge.cdn.example.net", ttl: 300),
            F.cname("edge.cdn.example.net", "e1.cdn.example.net", ttl: 60),
            F.a("e1.cdn.example.net", "203.0.113.10", ttl: 20),
            F.a("e1.cdn.example.net", "203.0.113.11", ttl: 20),
        ]),
        F.reply(id: 3, to: "ipv6.example.com", type: .aaaa, answers: [
            F.aaaa("ipv6.example.com", "2001:db8::1", ttl: 120),
            F.aaaa("ipv6.example.com", "2001:db8:0:1::abcd", ttl: 120),
        ]),
        F.reply(id: 4, to: "MiXeD.Example.COM", answers: [F.a("mixed.example.com", "198.51.100.9", ttl: 5)]),
        F.reply(id: 5, to: "missing.example", responseCode: .nameError, answers: []),
        F.reply(id: 6, to: "app.example.com", type: .aaaa, answers: [
            F.cname("app.example.com", "app.example.com.cdn.example.net", ttl: 600),
            F.aaaa("app.example.com.cdn.example.net", "fd00:18::35", ttl: 30),
        ]),
    ]

    @Test func tsharkReadsTheSameNamesAndAddressesAsOurParser() throws {
        let directory = TemporaryDirectory()
        let writer = try PcapFileWriter(config: .init(directory: directory.url))
        let server = IPEndpoint(address: IPAddress(ipv4: 0xC612_0035), port: 53)   // 198.18.0.53
        var parsed: [DNSMessage] = []
        for (index, reply) in Self.replies.enumerated() {
            let payload = Data(F.encode(reply))
            parsed.append(try DNSMessageParser.parse(payload))
            let device = IPEndpoint(address: IPAddress(ipv4: 0x0A07_0002), port: 40_000 + UInt16(index))
            let datagram = try PacketEmitter.udp(source: server, destination: device, payload: payload)
            try writer.write(packet: datagram, originalLength: datagram.count, timestamp: 1_700_000_000_000_000_000 + Int64(index))
        }
        try writer.close()
        let file = try #require(writer.captureFiles().first)
        let frames = try Tshark.fields(Self.fields, of: file)
        #expect(frames.count == Self.replies.count)

        for (frame, message) in zip(frames, parsed) {
            let number = frame["frame.number"]?.first ?? "?"
            #expect(frame["_ws.malformed"] == nil, "frame \(number)")
            #expect(frame["dns.id"]?.first.flatMap { UInt16($0.dropFirst(2), radix: 16) } == message.header.id, "frame \(number)")
            #expect(frame["dns.qry.name"] ?? [] == message.questions.map(\.name.description), "frame \(number)")
            #expect(frame["dns.count.answers"]?.first == String(message.answers.count), "frame \(number)")
            #expect(frame["dns.resp.ttl"] ?? [] == message.answers.map { String($0.ttl) }, "frame \(number)")
            var a: [String] = []
            var aaaa: [String] = []
            var cname: [String] = []
            for answer in message.answers {
                switch answer.data {
                case let .a(address): a.append(address.description)
                case let .aaaa(address): aaaa.append(address.description)
                case let .cname(target): cname.append(target.description)
                case .opaque: Issue.record("frame \(number): an answer we did not decode")
                }
            }
            #expect(frame["dns.a"] ?? [] == a, "frame \(number)")
            #expect(frame["dns.aaaa"] ?? [] == aaaa, "frame \(number)")
            #expect(frame["dns.cname"] ?? [] == cname, "frame \(number)")
        }
        // Not an empty agreement: the capture holds every kind of answer compared.
        let all = frames.map { $0.values.map(\.count).reduce(0, +) }.reduce(0, +)
        #expect(all > 30 && frames.contains { $0["dns.cname"]?.count == 2 } && frames.contains { $0["dns.aaaa"]?.count == 2 })
    }
}
