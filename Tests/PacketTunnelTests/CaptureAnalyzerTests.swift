import Fixtures
import Foundation
import Testing
import Shared
@testable import PacketTunnel

/// The offline analyzer over datagrams built by `PacketEmitter`: directions from who spoke first,
/// TCP streams reassembled for the scanners, DNS answers naming the flows that follow.
@Suite struct CaptureAnalyzerTests {
    static let client = IPEndpoint(address: IPAddress(parsing: "198.19.0.1")!, port: 40_000)
    static let server = IPEndpoint(address: IPAddress(parsing: "198.19.0.2")!, port: 8443)
    static let resolver = IPEndpoint(address: IPAddress(parsing: "198.19.0.2")!, port: 53)
    static let second: Int64 = 1_000_000_000

    final class Capture {
        let analyzer = CaptureAnalyzer()
        var clock: Int64 = 1_800_000_000 * CaptureAnalyzerTests.second

        func send(_ datagram: Data) {
            clock += 1_000_000
            datagram.withUnsafeBytes { analyzer.read(datagram: $0, originalLength: $0.count, nanosecondsSince1970: clock) }
        }

        func tcp(_ from: IPEndpoint, _ to: IPEndpoint, seq: UInt32, ack: UInt32 = 0, _ flags: TCPFlags = [.ack],
                 _ payload: [UInt8] = []) {
            send(try! PacketEmitter.tcp(source: from, destination: to, sequence: seq, acknowledgment: ack, flags: flags,
                                        windowSize: 65_535, payload: Data(payload)))
        }
    }

    @Test func aTLSConversationIsNamedBySNIWithItsClientAsTheSideThatSentTheSYN() throws {
        let capture = Capture()
        let (c, s) = (Self.client, Self.server)
        capture.tcp(c, s, seq: 999, [.syn])
        capture.tcp(s, c, seq: 4999, ack: 1000, [.syn, .ack])
        let hello = TLSVectors.clientHelloRecord
        // The hello arrives in two segments, the second first.
        capture.tcp(c, s, seq: 1040, ack: 5000, [.ack], Array(hello[40...]))
        capture.tcp(c, s, seq: 1000, ack: 5000, [.ack], Array(hello[..<40]))
        capture.tcp(s, c, seq: 5000, ack: 1000 + UInt32(hello.count), [.ack], TLSVectors.serverHello13Record)

        let conversations = capture.analyzer.conversations()
        let conversation = try #require(conversations.first)
        #expect(conversations.count == 1)
        #expect(conversation.client == c)
        #expect(conversation.record.sni == "example.com")
        #expect(conversation.record.streamOpening == .tlsHandshake)
        #expect(conversation.record.clientTLS?.applicationProtocols == ["h2", "http/1.1"])
        #expect(conversation.record.serverTLS == .negotiated(NegotiatedTLS(
            version: .tls13, cipherSuite: TLSCipherSuite(rawValue: 0x1301), fromHelloRetryRequest: false, source: .serverHello)))
        #expect(conversation.record.packetCount == 5)
        #expect(conversation.record.bytesOut > conversation.record.bytesIn)          // the hello is longer
    }

    /// The records are moved out at the end: asked again, the end gives the same conversations,
    /// whole, not what is left behind.
    @Test func theEndOfACaptureAskedAgainGivesTheSameConversations() throws {
        let capture = Capture()
        capture.tcp(Self.client, Self.server, seq: 999, [.syn])
        capture.tcp(Self.server, Self.client, seq: 4999, ack: 1000, [.syn, .ack])
        capture.tcp(Self.client, Self.server, seq: 1000, ack: 5000, [.ack], TLSVectors.clientHelloRecord)
        let first = capture.analyzer.conversations()
        let again = capture.analyzer.conversations()
        #expect(first.count == 1 && again.count == 1)
        #expect(again.first?.record == first.first?.record)
        #expect(again.first?.record.sni == "example.com")
        #expect(again.first?.record.packetCount == 3)
    }

    @Test func aCaptureThatBeginsAtTheSynAckStillKnowsTheClient() throws {
        let capture = Capture()
        capture.tcp(Self.server, Self.client, seq: 4999, ack: 1000, [.syn, .ack])
        capture.tcp(Self.client, Self.server, seq: 1000, ack: 5000)
        #expect(try #require(capture.analyzer.conversations().first).client == Self.client)
    }

    @Test func aDNSAnswerNamesTheFlowToItsAddressThatFollowsIt() throws {
        let capture = Capture()
        let query = DNSMessageFixture.encode(DNSMessageFixture.query(for: "www.example.test"))
        let reply = DNSMessageFixture.encode(DNSMessageFixture.reply(to: "www.example.test", answers: [
            DNSMessageFixture.cname("www.example.test", "edge.example.test"),
            DNSMessageFixture.a("edge.example.test", "198.19.0.2"),
        ]))
        let asking = IPEndpoint(address: Self.client.address, port: 50_000)
        capture.send(try PacketEmitter.udp(source: asking, destination: Self.resolver, payload: Data(query)))
        capture.send(try PacketEmitter.udp(source: Self.resolver, destination: asking, payload: Data(reply)))
        capture.tcp(Self.client, IPEndpoint(address: Self.server.address, port: 80), seq: 1, [.syn])

        let web = try #require(capture.analyzer.conversations().first { $0.record.key.proto == .tcp })
        #expect(web.record.resolvedName == ResolvedFlowName(name: "www.example.test"))
        #expect(web.record.name?.origin == .dns)
        #expect(capture.analyzer.pipeline.stats.dnsNames.repliesRecorded == 1)
        #expect(capture.analyzer.pipeline.stats.dnsNames.flowsNamed == 1)
    }

    @Test("a DNS flow is named by what it asked, with how it was answered: addresses, no such name, or nothing yet")
    func aDNSFlowIsNamedByItsQuestion() throws {
        let capture = Capture()
        let (first, second, third) = (IPEndpoint(address: Self.client.address, port: 50_001),
                                      IPEndpoint(address: Self.client.address, port: 50_002),
                                      IPEndpoint(address: Self.client.address, port: 50_003))
        func send(_ message: DNSMessage, from source: IPEndpoint, to destination: IPEndpoint) throws {
            capture.send(try PacketEmitter.udp(source: source, destination: destination, payload: Data(DNSMessageFixture.encode(message))))
        }
        // A and AAAA on one socket: the first question names the flow; the AAAA's answer is not its.
        try send(DNSMessageFixture.query(id: 1, for: "WWW.Example.test"), from: first, to: Self.resolver)
        try send(DNSMessageFixture.query(id: 2, for: "www.example.test", type: .aaaa), from: first, to: Self.resolver)
        try send(DNSMessageFixture.reply(id: 2, to: "www.example.test", type: .aaaa, answers: [
            DNSMessageFixture.aaaa("www.example.test", "fd00:19::4")]), from: Self.resolver, to: first)
        try send(DNSMessageFixture.reply(id: 1, to: "www.example.test", answers: [
            DNSMessageFixture.cname("www.example.test", "edge.example.test"),
            DNSMessageFixture.a("edge.example.test", "198.19.0.2")]), from: Self.resolver, to: first)
        try send(DNSMessageFixture.query(for: "gone.example.test"), from: second, to: Self.resolver)
        try send(DNSMessageFixture.reply(to: "gone.example.test", responseCode: .nameError, answers: []), from: Self.resolver, to: second)
        try send(DNSMessageFixture.query(for: "silent.example.test", type: .aaaa), from: third, to: Self.resolver)

        let records = Dictionary(uniqueKeysWithValues: capture.analyzer.conversations().map { ($0.record.dnsExchange?.question ?? "", $0.record) })
        let answered = try #require(records["www.example.test"])
        #expect(answered.name?.origin == .dnsQuery && answered.name?.text == "www.example.test")
        #expect(answered.dnsExchange == DNSExchange(question: "www.example.test", questionType: 1, reply: DNSReply(
            responseCode: 0, answerCount: 2, answers: ["edge.example.test", "198.19.0.2"])))
        #expect(answered.dnsExchange?.reply?.outcome == .answered)
        #expect(records["gone.example.test"]?.dnsExchange?.reply?.outcome == .noSuchName)
        #expect(records["gone.example.test"]?.dnsExchange?.reply?.answers == [])
        #expect(records["silent.example.test"]?.dnsExchange == DNSExchange(question: "silent.example.test", questionType: 28))
    }

    @Test func aLateAckAfterBothFINsStaysPartOfItsConversation() throws {
        let capture = Capture()
        let (c, s) = (Self.client, Self.server)
        capture.tcp(c, s, seq: 0, [.syn])
        capture.tcp(s, c, seq: 0, ack: 1, [.syn, .ack])
        capture.tcp(c, s, seq: 1, ack: 1, [.ack, .fin])
        capture.tcp(s, c, seq: 1, ack: 2, [.ack, .fin])
        capture.tcp(c, s, seq: 2, ack: 2)                                    // starts a new lifetime in the table
        let conversations = capture.analyzer.conversations()
        #expect(conversations.count == 1)
        #expect(conversations.first?.record.packetCount == 5)
    }

    @Test func aDatagramThatIsNotIPIsCountedAsUnreadable() {
        let capture = Capture()
        capture.send(Data([0x00, 0x01, 0x02]))
        #expect(capture.analyzer.unreadable == 1)
        #expect(capture.analyzer.conversations().isEmpty)
    }

    @Test("out-of-order data beyond the client's reach is counted by the analyzer, and the hello that fills the gap is still read")
    func outOfOrderDataBeyondTheReachIsCounted() throws {
        let capture = Capture()
        let (c, s) = (Self.client, Self.server)
        let hello = TLSVectors.clientHelloRecord
        capture.tcp(c, s, seq: 999, [.syn])
        capture.tcp(s, c, seq: 4999, ack: 1000, [.syn, .ack])
        let beyond = UInt32(1000 + TCPFlowScanners.clientStreamReach)
        capture.tcp(c, s, seq: beyond, ack: 5000, [.ack], [UInt8](repeating: 0x41, count: 1000))   // wholly past the reach
        capture.tcp(c, s, seq: beyond - 10, ack: 5000, [.ack], [UInt8](repeating: 0x42, count: 30))  // 10 bytes within
        #expect(capture.analyzer.outOfOrderDrops == OutOfOrderDrops(segments: 2, bytes: 1020))
        #expect(capture.analyzer.heldByteCount == 10)
        capture.tcp(c, s, seq: 1000, ack: 5000, [.ack], hello)
        #expect(capture.analyzer.heldByteCount == 0)                         // the client side settled: nothing held
        #expect(try #require(capture.analyzer.conversations().first).record.sni == "example.com")
    }
}
