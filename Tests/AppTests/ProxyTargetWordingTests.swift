import App
import Foundation
import Shared
import Testing

/// A proxy request's target in every document that shows a flow, and the name it gives.
@Suite struct ProxyTargetWordingTests {
    static let key = FlowKey(proto: .tcp, source: IPEndpoint(address: IPAddress(parsing: "10.7.0.2")!, port: 40_000),
                             destination: IPEndpoint(address: IPAddress(parsing: "198.18.0.1")!, port: 1080))
    static let socks5 = ProxyTarget(proxyProtocol: .socks5, host: "example.com", port: 443)

    static func flow(_ target: ProxyTarget?) -> HistoryFlow {
        HistoryFlow(StoredFlow(id: 3, key: key, firstSeen: Date(timeIntervalSince1970: 1_800_000_000), tlsStatus: .encrypted,
                               resolvedName: ResolvedFlowName(name: "proxy.lab.example"), proxyTarget: target))
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func expectTarget(_ proxy: Any?, _ target: ProxyTarget) {
        let proxy = proxy as? [String: Any]
        #expect(proxy?["protocol"] as? String == target.proxyProtocol.rawValue)
        #expect(proxy?["host"] as? String == target.host && proxy?["port"] as? Int == Int(target.port))
    }

    @Test("flows --json carries the target and names the flow by it; a flow without one has proxy null")
    func flowsJSON() throws {
        for target in [Self.socks5, nil] {
            var out = JSONWriter()
            HistoryFlowWording.write(Self.flow(target), after: nil, to: &out)
            let flow = try Self.object(String(decoding: out.writer.bytes, as: UTF8.self))
            if let target {
                Self.expectTarget(flow["proxy"], target)
                #expect(flow["name"] as? String == "example.com" && flow["nameSource"] as? String == "proxy")
                // The words beside the name are the text's, with the proxy's protocol (what the web app shows).
                #expect(flow["nameSourceText"] as? String == "named in a proxy request (SOCKS5)")
            } else {
                #expect(flow["proxy"] is NSNull && flow["nameSource"] as? String == "dns")
                #expect(flow["nameSourceText"] as? String == FlowNameSource.dns.phrase)
            }
        }
    }

    @Test("the export carries the target beside the name")
    func exportJSON() throws {
        let document = try Self.object(String(decoding: FlowExport.document([Self.flow(Self.socks5)], exportedAt: Date()),
                                              as: UTF8.self))
        let entry = try #require((document["connections"] as? [[String: Any]])?.first)
        Self.expectTarget(entry["proxy"], Self.socks5)
        #expect(entry["nameSource"] as? String == "proxy")
    }

    @Test("flow ID says where the name came from with the protocol, and the target in a line and in JSON")
    func inspector() throws {
        let target = ProxyTarget(proxyProtocol: .httpConnect, host: "fd00::1", port: 8443)
        let inspector = FlowInspector(flow: Self.flow(target), packets: [], storedPacketCount: 0)
        let text = inspector.text()
        #expect(text.contains("  opened as an HTTP CONNECT request to [fd00::1]:8443"))
        // An IP literal names nothing: the proxy's own DNS name stays the flow's name.
        #expect(text.contains("Connection 3: proxy.lab.example") && text.contains("  name from a DNS answer"))
        let named = FlowInspector(flow: Self.flow(Self.socks5), packets: [], storedPacketCount: 0).text()
        #expect(named.contains("Connection 3: example.com") && named.contains("  name named in a proxy request (SOCKS5)"))
        let json = try Self.object(inspector.json())
        Self.expectTarget(json["proxy"], target)
        #expect((json["proxy"] as? [String: Any])?["text"] as? String == "an HTTP CONNECT request to [fd00::1]:8443")
    }

    @Test("analyze --json and its text carry the target")
    func analyze() throws {
        var record = FlowRecord(key: Self.key, firstSeen: 1, tlsStatus: .encrypted)
        record.proxyTarget = ProxyTarget(proxyProtocol: .socks4a, host: "example.com", port: 443)
        let analysis = AnalyzedCapture(path: "p.pcap", linkType: 101, packets: 1, nonIPFrames: 0, unreadablePackets: 0,
                                       conversations: [.init(record: record, client: Self.key.endpointA)], damage: nil)
        let document = try Self.object(AnalysisReport(analysis).json())
        let conversation = try #require((document["conversations"] as? [[String: Any]])?.first)
        Self.expectTarget(conversation["proxy"], record.proxyTarget!)
        #expect(conversation["nameSource"] as? String == "proxy")
        let text = AnalysisReport(analysis).text()
        #expect(text.contains("example.com (proxy)") && text.contains("    proxy: a SOCKS4a request to example.com:443"))
    }
}
