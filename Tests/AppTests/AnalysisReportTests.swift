import Foundation
import Testing
import App
import Shared

@Suite struct AnalysisReportTests {
    static let client = IPEndpoint(address: IPAddress(parsing: "198.19.0.1")!, port: 40_000)
    static let server = IPEndpoint(address: IPAddress(parsing: "198.19.0.2")!, port: 443)

    static func record(_ proto: IPProtocolNumber, sni: String? = nil, dns: String? = nil) -> FlowRecord {
        var record = FlowRecord(key: FlowKey(proto: proto, source: server, destination: client), firstSeen: 1,
                                tlsStatus: .encrypted)
        record.sni = sni
        record.resolvedName = dns.map { ResolvedFlowName(name: $0, otherNames: ["b.test"]) }
        record.packetCount = 3
        record.bytesOut = 100
        record.bytesIn = 200
        return record
    }

    func json(_ conversations: [AnalyzedCapture.Conversation]) throws -> [String: Any] {
        let analysis = AnalyzedCapture(path: "/tmp/a \"b\".pcap", linkType: 1, packets: 9, nonIPFrames: 2,
                                       unreadablePackets: 1, conversations: conversations, damage: nil)
        let text = AnalysisReport(analysis).json()
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func theJSONNamesEachConversationWithItsSourceAndOrientsItByItsClient() throws {
        var tls = Self.record(.tcp, sni: "a.test", dns: "a-dns.test")
        tls.clientTLS = ClientTLSOffer(versions: .upTo(.tls12), applicationProtocols: ["h2"])
        tls.serverTLS = .refused(alert: 70)
        let quic = Self.record(.udp, sni: "q.test")
        let named = Self.record(.tcp, dns: "a.test")
        let document = try json([.init(record: tls, client: Self.client), .init(record: quic, client: Self.client),
                                 .init(record: named, client: nil)])
        #expect(document["file"] as? String == "/tmp/a \"b\".pcap")
        #expect(document["nonIPFrames"] as? Int == 2 && document["unreadablePackets"] as? Int == 1)
        #expect(document["damage"] is NSNull)
        let conversations = try #require(document["conversations"] as? [[String: Any]])
        #expect(conversations.map { $0["nameSource"] as? String } == ["sni", "quic", "dns"])
        #expect(conversations[0]["client"] as? String == "198.19.0.1:40000")
        #expect(conversations[0]["server"] as? String == "198.19.0.2:443")
        #expect(conversations[0]["bytesFromClient"] as? Int == 100)
        let offer = try #require(conversations[0]["clientOffer"] as? [String: Any])
        #expect(offer["versions"] is NSNull && offer["upTo"] as? Int == 0x0303 && offer["alpn"] as? [String] == ["h2"])
        #expect((conversations[0]["serverAnswer"] as? [String: Any])?["alert"] as? Int == 70)
        #expect((conversations[0]["certificates"] as? [String: Any])?["visibility"] as? String == "noNegotiation")
        #expect(conversations[1]["certificates"] is NSNull)
        #expect(conversations[2]["otherNames"] as? [String] == ["b.test"])
    }

    @Test func theTextSaysWhatWasReadAndWhatWasNot() {
        var record = Self.record(.tcp, sni: "a.test")
        record.serverTLS = .negotiated(NegotiatedTLS(version: .tls13, cipherSuite: TLSCipherSuite(rawValue: 0x1301),
                                                     fromHelloRetryRequest: true, source: .serverHello))
        let analysis = AnalyzedCapture(path: "x.pcap", linkType: 101, packets: 3, nonIPFrames: 0, unreadablePackets: 0,
                                       conversations: [.init(record: record, client: Self.client)], damage: "record 7: cut short")
        let text = AnalysisReport(analysis).text()
        #expect(text.contains("TCP 198.19.0.1:40000 → 198.19.0.2:443  a.test (sni)"))
        #expect(text.contains("server answered: TLS 1.3 · cipher suite TLS_AES_128_GCM_SHA256 (0x1301) (HelloRetryRequest)"))
        #expect(text.contains("certificates: encrypted (TLS 1.3)"))
        #expect(text.contains("the file is damaged from record 7: cut short"))
    }

    /// Pieces rendered by several threads at once must join into exactly the one-thread report:
    /// every piece boundary, the commas between pieces, an empty capture and a single piece.
    @Test(arguments: [0, 1, 511, 512, 513, 1_500])
    func theJSONIsTheSameRenderedByOneThreadOrSeveral(conversations count: Int) throws {
        let conversations = (0..<count).map { index in
            AnalyzedCapture.Conversation(record: Self.record(index % 2 == 0 ? .tcp : .udp, sni: "host-\(index).test"),
                                         client: Self.client)
        }
        let analysis = AnalyzedCapture(path: "x.pcap", linkType: 101, packets: count, nonIPFrames: 0,
                                       unreadablePackets: 0, conversations: conversations, damage: nil)
        let report = AnalysisReport(analysis)
        let whole = report.json()
        for renderers in [2, 3, 8] {
            var joined: [UInt8] = []
            report.writeJSON(renderers: renderers) { joined += $0 }
            #expect(String(decoding: joined, as: UTF8.self) == whole, "\(renderers) renderers")
        }
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(whole.utf8)) as? [String: Any])
        #expect((decoded["conversations"] as? [[String: Any]])?.count == count)
    }

    @Test("the out-of-order data not held is said in the text and carried in the JSON, and is silent when there was none")
    func theOutOfOrderDataNotHeldIsReported() throws {
        let drops = OutOfOrderDrops(segments: 3, bytes: 4_000)
        let analysis = AnalyzedCapture(path: "x.pcap", linkType: 101, packets: 5, nonIPFrames: 0, unreadablePackets: 0,
                                       conversations: [], damage: nil, outOfOrderDrops: drops)
        #expect(AnalysisReport(analysis).text().contains(
            "out-of-order data beyond what the scanners read: 3 segments, 4000 bytes not held"))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(AnalysisReport(analysis).json().utf8)) as? [String: Any])
        let notHeld = try #require(document["outOfOrderNotHeld"] as? [String: Any])
        #expect(notHeld["segments"] as? Int == 3 && notHeld["bytes"] as? Int == 4_000)

        let clean = AnalyzedCapture(path: "x.pcap", linkType: 101, packets: 5, nonIPFrames: 0, unreadablePackets: 0,
                                    conversations: [], damage: nil)
        #expect(!AnalysisReport(clean).text().contains("out-of-order"))
        let cleanDocument = try #require(try JSONSerialization.jsonObject(with: Data(AnalysisReport(clean).json().utf8)) as? [String: Any])
        #expect((cleanDocument["outOfOrderNotHeld"] as? [String: Any])?["segments"] as? Int == 0)
    }

    @Test("every opening has words of its own; a switch to TLS names its protocol in the text and the JSON")
    func everyOpeningIsWorded() throws {
        var lines: [String] = []
        for opening in StreamOpening.allCases {
            var record = Self.record(.tcp, sni: "a.test")
            record.streamOpening = opening
            let analysis = AnalyzedCapture(path: "x.pcap", linkType: 101, packets: 3, nonIPFrames: 0, unreadablePackets: 0,
                                           conversations: [.init(record: record, client: Self.client)], damage: nil)
            let said = AnalysisReport(analysis).text().split(separator: "\n").first { $0.contains("opened with:") }
            lines.append(String(try #require(said)))
            let document = try json([.init(record: record, client: Self.client)])
            #expect((document["conversations"] as? [[String: Any]])?.first?["streamOpening"] as? String == opening.rawValue)
        }
        #expect(Set(lines).count == StreamOpening.allCases.count)
        #expect(lines.contains("    opened with: SMTP, then TLS after STARTTLS"))
        #expect(lines.contains("    opened with: PostgreSQL, then TLS after an SSLRequest"))
    }
}
