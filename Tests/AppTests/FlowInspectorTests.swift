import App
import Fixtures
import Foundation
import Shared
import Testing
import TestSupport

@Suite struct FlowInspectorTests {
    @Test("RST outranks every flag, SYN ACK is accepted, FIN ACK finished sending, a bare ACK confirms delivery")
    func titles() {
        func title(_ flags: TCPFlags, length: UInt32 = 40, proto: IPProtocolNumber = .tcp, version: IPVersion = .v4) -> PacketTitle {
            PacketTitle(flags: flags, length: length, proto: proto, version: version)
        }
        #expect(title(.syn) == .opened)
        #expect(title([.syn, .ack]) == .accepted)
        #expect(title(.ack) == .deliveryConfirmed)
        #expect(title([.ack], length: 52) == .deliveryConfirmed)   // timestamps option, no data
        #expect(title([.ack], length: 1500) == .data)               // bulk data without PSH
        #expect(title([.ack], length: 100, version: .v6) == .deliveryConfirmed)
        #expect(title([.psh, .ack], length: 41) == .data)
        #expect(title([.fin, .ack]) == .finishedSending)
        #expect(title([.fin, .psh, .ack], length: 400) == .finishedSending)
        #expect(title([.rst, .ack]) == .cutOff)
        #expect(title([.rst, .syn, .fin, .ack, .psh]) == .cutOff)
        #expect(title(.rst) == .cutOff)
        #expect(title([], proto: .udp) == .data)
        #expect(title([], proto: .icmp) == .data)
        #expect(PacketTitle.acronyms([.syn, .ack]) == "SYN ACK")
        #expect(PacketTitle.acronyms([.rst, .ack]) == "RST ACK")
        #expect(PacketTitle.acronyms([]) == "")
        #expect(PacketTitle.deliveryConfirmed.text == "delivery confirmed" && PacketTitle.cutOff.text == "cut off")
    }

    @Test("times are relative to the first packet at millisecond resolution, and numbers group by thousands")
    func timesAndNumbers() {
        #expect(FlowInspector.seconds(0.004) == "0.004 s")
        #expect(FlowInspector.seconds(1.2506) == "1.251 s")
        #expect(FlowInspector.seconds(-1) == "0.000 s")
        #expect(FlowInspector.grouped(10_000) == "10 000")
        #expect(FlowInspector.grouped(500) == "500")
        #expect(FlowInspector.grouped(1_234_567) == "1 234 567")
    }

    @Test("the inspector of a stored connection titles its packets, times them from the first, and caps the list with both numbers")
    func inspectorOfAStoredFlow() async throws {
        let history = try InspectorHistory()
        let id = try await history.record(InspectorHistory.tcpKey, try InspectorHistory.tcpConversation(), sni: "example.test")
        let packets = try await history.store.packets(forFlow: id, limit: 500)
        let stored = try #require(try await history.store.flow(id: id))
        #expect(try await history.store.flow(id: id + 100) == nil)
        #expect(try await history.store.packetCount(forFlow: id) == 7)
        let flow = HistoryFlow(stored)
        let inspector = FlowInspector(flow: flow, packets: packets, storedPacketCount: 7)
        #expect(inspector.rows.map(\.title) == [.opened, .accepted, .deliveryConfirmed, .data, .data, .finishedSending, .cutOff])
        #expect(inspector.rows.map(\.time) == ["0.000 s", "0.004 s", "0.005 s", "0.006 s", "0.040 s", "1.250 s", "1.251 s"])
        #expect(inspector.rows.map(\.flags)[1] == "SYN ACK" && inspector.rows.map(\.flags)[6] == "RST ACK")
        #expect(inspector.footer == nil)
        let facts = Dictionary(uniqueKeysWithValues: inspector.facts.map { ($0.label, $0.value) })
        #expect(facts.count == 7)
        #expect(facts["Between"] == "this device 198.18.0.2 port 40000 and 198.18.0.1 port 443")
        #expect(facts["Protocol"] == "TCP over IPv4")
        #expect(facts["First to last packet"]?.hasSuffix("(1.251 s)") == true)
        #expect(facts["Sent"]?.contains("\(stored.bytesOut) bytes") == true && facts["Received"]?.contains("\(stored.bytesIn) bytes") == true)
        #expect(facts["Encryption"] == "encrypted, not inspected")
        let text = inspector.text()
        #expect(text.contains("Connection \(id): example.test"))
        #expect(text.contains("name announced by the connection (TLS server name)"))

        let capped = FlowInspector(flow: flow, packets: packets, storedPacketCount: 10_000, limit: 2)
        #expect(capped.rows.count == 2 && capped.isCapped)
        #expect(capped.footer == "showing the first 2 of 10 000 packets")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(capped.json().utf8)) as? [String: Any])
        #expect(json["storedPackets"] as? Int == 10_000 && (json["packets"] as? [Any])?.count == 2)
        #expect(json["footer"] as? String == "showing the first 2 of 10 000 packets")
        try await history.close()
    }

    @Test("the handshake is said in the analyze report's words, the same in the text and in the JSON, never as code points")
    func handshakeInWords() async throws {
        let history = try InspectorHistory()
        let leaf = ServerCertificate(subject: CertificateName(text: "CN=shop.test"), issuer: CertificateName(text: "CN=Demo CA"),
                                     notAfter: Date(timeIntervalSince1970: 1_830_000_000))
        let id = try await history.record(InspectorHistory.tcpKey, try InspectorHistory.tcpConversation(), sni: "shop.test") {
            $0.streamOpening = .tlsHandshake
            $0.clientTLS = ClientTLSOffer(versions: .listed([.tls13, .tls12]), applicationProtocols: ["h2", "http/1.1"])
            $0.serverTLS = .negotiated(NegotiatedTLS(version: .tls12, cipherSuite: TLSCipherSuite(rawValue: 0xC02F),
                                                     fromHelloRetryRequest: false, source: .serverHello))
            $0.serverCertificates = .chain(ServerCertificateChain(certificates: [leaf], isComplete: true))
        }
        let stored = try #require(try await history.store.flow(id: id))
        let inspector = FlowInspector(flow: HistoryFlow(stored), packets: try await history.store.packets(forFlow: id, limit: 500),
                                      storedPacketCount: 7)
        let said = Dictionary(uniqueKeysWithValues: inspector.handshakeFacts.map { ($0.label, $0.value) })
        #expect(said["opened with"] == "a TLS handshake")
        #expect(said["client offered"] == "TLS 1.3, TLS 1.2 · ALPN h2, http/1.1")
        #expect(said["server answered"] == "TLS 1.2 · cipher suite TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 (0xc02f)")
        #expect(said["certificates"] == "1 presented")
        let text = inspector.text()
        for fact in inspector.handshakeFacts { #expect(text.contains("    \(fact.label): \(fact.value)\n")) }
        #expect(text.contains("      CN=shop.test\n        issued by CN=Demo CA, valid until 2027-12-28T"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(inspector.json().utf8)) as? [String: Any])
        let handshake = try #require(json["handshake"] as? [[String: String]])
        #expect(handshake.map { $0["label"] ?? "" } == inspector.handshakeFacts.map(\.label))
        #expect(handshake.map { $0["text"] ?? "" } == inspector.handshakeFacts.map(\.value))
        let answer = try #require(json["serverAnswer"] as? [String: Any])
        #expect(answer["cipherSuite"] as? Int == 0xC02F && answer["cipherSuiteName"] as? String == "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256")
        let chain = try #require((json["certificates"] as? [String: Any])?["chain"] as? [[String: Any]])
        #expect(chain.first?["text"] as? String == "issued by CN=Demo CA, valid until 2027-12-28T13:20:00Z")
        try await history.close()
    }

    @Test("the Community ID of a flow whose tuple the spec publishes is the published one, in the text and the JSON")
    func publishedCommunityID() async throws {
        // community-id-spec's baseline_deflt.json: TCP 128.232.110.120:34855 → 66.35.250.204:80.
        let history = try InspectorHistory()
        let key = FlowKey(proto: .tcp, source: IPEndpoint(address: IPAddress(parsing: "66.35.250.204")!, port: 80),
                          destination: IPEndpoint(address: IPAddress(parsing: "128.232.110.120")!, port: 34_855))
        let id = try await history.record(key, [])
        let inspector = FlowInspector(flow: HistoryFlow(try #require(try await history.store.flow(id: id))), packets: [],
                                      storedPacketCount: 0)
        #expect(inspector.text().contains("  Community ID          1:LQU9qZlK+B5F3KDmev6m5PMibrg=\n"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(inspector.json().utf8)) as? [String: Any])
        #expect(json["communityID"] as? String == "1:LQU9qZlK+B5F3KDmev6m5PMibrg=")
        try await history.close()
    }

    @Test("the Community ID of the stored connection is pycommunityid's; an ICMP flow has none, and the text says why")
    func communityIDs() async throws {
        let history = try InspectorHistory()
        let tcp = try await history.record(InspectorHistory.tcpKey, [])
        let icmp = try await history.record(FlowKey(proto: .icmp, source: IPEndpoint(address: TunnelAddressing.ipv4Address, port: 0),
                                                    destination: IPEndpoint(address: InspectorHistory.server.address, port: 0)), [])
        func inspector(_ id: Int64) async throws -> FlowInspector {
            FlowInspector(flow: HistoryFlow(try #require(try await history.store.flow(id: id))), packets: [], storedPacketCount: 0)
        }
        let expected = try CommunityIDOracle.id(.init(proto: 6, source: "198.18.0.2", destination: "198.18.0.1", ports: (40_000, 443)))
        let tcpJSON = try #require(try JSONSerialization.jsonObject(with: Data(try await inspector(tcp).json().utf8)) as? [String: Any])
        #expect(tcpJSON["communityID"] as? String == expected)
        let icmpInspector = try await inspector(icmp)
        let icmpJSON = try #require(try JSONSerialization.jsonObject(with: Data(icmpInspector.json().utf8)) as? [String: Any])
        #expect(icmpJSON["communityID"] is NSNull)
        #expect(icmpInspector.facts.first { $0.label == "Community ID" }?.value
                == "none: the history keeps no ICMP type or code, which it hashes")
        try await history.close()
    }
}
