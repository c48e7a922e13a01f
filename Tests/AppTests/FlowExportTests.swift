import Foundation
import Shared
import Testing
import TestSupport
import App

/// The export's JSON as the pure core writes it, decoded back with JSONSerialization
/// (seeds/000 § Flow export, Tests).
@Suite("The export's JSON document")
struct FlowExportTests {
    static let exportedAt = Date(timeIntervalSince1970: 1_796_005_130.123456)

    @Test("an empty history is a whole document: no entries, zero counts, not truncated")
    func emptyExport() throws {
        let document = try exportDocument(FlowExport.document([], exportedAt: Self.exportedAt))
        #expect((document["connections"] as? [Any])?.isEmpty == true)
        #expect(document["connectionCount"] as? Int == 0)
        #expect(document["packetCount"] as? Int == 0)
        #expect(document["truncated"] as? Bool == false)
        #expect(document["contents"] as? String == FlowExport.contents)
        #expect((document["contents"] as? String)?.contains("metadata only") == true)
    }

    @Test("the header dates the export as a UTC instant")
    func headerInstant() throws {
        let document = try exportDocument(FlowExport.document([], exportedAt: Self.exportedAt))
        #expect(document["exportedAt"] as? String == "2026-11-30T02:18:50.123456Z")
        #expect(document["format"] as? String == "tunnelvision-connections")
        #expect(document["limit"] as? Int == FlowExport.defaultLimit)
    }

    @Test("the trailer counts the connections, packets and bytes of the entries, and says whether it was cut")
    func trailerCounts() async throws {
        let fixture = try ExportHistoryFixture()
        let flows = try await fixture.write([
            ExportHistoryFixture.record(port: 40_001, lastSeen: 3_000_000, bytesOut: 100, bytesIn: 2_000, packets: 5),
            ExportHistoryFixture.record(port: 40_002, lastSeen: 4_000_000, bytesOut: 23, bytesIn: 7, packets: 2),
        ])
        let document = try exportDocument(FlowExport.document(flows, exportedAt: Self.exportedAt, truncated: true))
        #expect(document["connectionCount"] as? Int == 2)
        #expect(document["packetCount"] as? Int == 7)
        #expect(document["bytesOut"] as? Int == 123)
        #expect(document["bytesIn"] as? Int == 2_007)
        #expect(document["truncated"] as? Bool == true)
        await fixture.close()
    }

    @Test("an entry carries its protocol, name and source, times in UTC, bytes each way, packets and TLS status")
    func entryFields() async throws {
        let fixture = try ExportHistoryFixture()
        let flows = try await fixture.write([ExportHistoryFixture.record(port: 40_001, lastSeen: 3_000_000,
                                                                         sni: "www.example.com", status: .notInspectable,
                                                                         bytesOut: 517, bytesIn: 6_001, packets: 11)])
        let document = try exportDocument(FlowExport.document(flows, exportedAt: Self.exportedAt))
        let entry = try #require((document["connections"] as? [[String: Any]])?.first)
        #expect(entry["id"] as? Int == Int(flows[0].id))
        #expect(entry["protocol"] as? String == "tcp")
        #expect(entry["host"] as? String == "www.example.com")
        #expect(entry["name"] as? String == "www.example.com")
        #expect(entry["nameSource"] as? String == "sni")
        #expect(entry["bytesOut"] as? Int == 517)
        #expect(entry["bytesIn"] as? Int == 6_001)
        #expect(entry["packets"] as? Int == 11)
        #expect(entry["tlsStatus"] as? String == "notInspectable")
        let firstSeen = try #require(entry["firstSeen"] as? String)
        #expect(firstSeen.hasSuffix("Z") && firstSeen.count == "2026-11-30T02:18:50.123456Z".count)
        #expect(entry["payload"] == nil && entry["content"] == nil)
        await fixture.close()
    }

    @Test("without an SNI or a DNS name the host is the remote address, and the name says there is none")
    func addressFallback() async throws {
        let fixture = try ExportHistoryFixture()
        let flows = try await fixture.write([ExportHistoryFixture.record(port: 40_001, lastSeen: 3_000_000)])
        let entry = try #require((try exportDocument(FlowExport.document(flows, exportedAt: Self.exportedAt))["connections"]
            as? [[String: Any]])?.first)
        #expect(entry["host"] as? String == "198.19.0.2")
        #expect(entry["name"] is NSNull)
        #expect(entry["nameSource"] is NSNull)
        await fixture.close()
    }

    @Test("split endpoints go out as local and remote, beside the stored pair and its Community ID")
    func splitEndpoints() async throws {
        let fixture = try ExportHistoryFixture()
        let flows = try await fixture.write([ExportHistoryFixture.record(port: 40_001, lastSeen: 3_000_000)])
        let entry = try #require((try exportDocument(FlowExport.document(flows, exportedAt: Self.exportedAt))["connections"]
            as? [[String: Any]])?.first)
        let local = try #require(entry["local"] as? [String: Any])
        let remote = try #require(entry["remote"] as? [String: Any])
        #expect(local["address"] as? String == "198.18.0.2" && local["port"] as? Int == 40_001)
        #expect(remote["address"] as? String == "198.19.0.2" && remote["port"] as? Int == 443)
        #expect((entry["peers"] as? [[String: Any]])?.count == 2)
        #expect(entry["communityID"] as? String
                == (try CommunityIDOracle.id(.init(proto: 6, source: "198.18.0.2", destination: "198.19.0.2", ports: (40_001, 443)))))
    }

    @Test("a connection whose ends cannot be split keeps both addresses in peers, local and remote null")
    func unsplitEndpoints() async throws {
        let fixture = try ExportHistoryFixture()
        let flows = try await fixture.write([ExportHistoryFixture.record(port: 40_001, lastSeen: 3_000_000,
                                                                         device: IPAddress(parsing: "198.18.5.5")!)])
        let entry = try #require((try exportDocument(FlowExport.document(flows, exportedAt: Self.exportedAt))["connections"]
            as? [[String: Any]])?.first)
        #expect(entry["local"] is NSNull)
        #expect(entry["remote"] is NSNull)
        let peers = try #require(entry["peers"] as? [[String: Any]])
        #expect(Set(peers.compactMap { $0["address"] as? String }) == ["198.18.5.5", "198.19.0.2"])
        #expect(Set(peers.compactMap { $0["port"] as? Int }) == [40_001, 443])
        #expect(entry["host"] is NSNull)
        await fixture.close()
    }

    @Test("protocol, TLS status and name source are stable identifiers, not screen copy")
    func stableNames() async throws {
        #expect(HistoryFlowWording.protocolIdentifier(.tcp) == "tcp")
        #expect(HistoryFlowWording.protocolIdentifier(.udp) == "udp")
        #expect(HistoryFlowWording.protocolIdentifier(.icmpv6) == "icmpv6")
        #expect(HistoryFlowWording.protocolIdentifier(IPProtocolNumber(rawValue: 47)) == "proto-47")
        #expect(TLSInspectionStatus.allCases.map(HistoryFlowWording.statusIdentifier)
                == ["plaintext", "encrypted", "inspected", "notInspectable", "inspectionFailed"])
        let fixture = try ExportHistoryFixture()
        let flows = try await fixture.write([
            ExportHistoryFixture.record(port: 40_001, lastSeen: 3_000_000, proto: .udp, sni: "quic.example"),
            ExportHistoryFixture.record(port: 40_002, lastSeen: 4_000_000, resolved: ResolvedFlowName(name: "web.example",
                                                                                                       otherNames: ["alias.example"]),
                                        status: .plaintext),
        ])
        let entries = try #require(try exportDocument(FlowExport.document(flows, exportedAt: Self.exportedAt))["connections"]
            as? [[String: Any]])
        let quic = try #require(entries.first { $0["protocol"] as? String == "udp" })
        let web = try #require(entries.first { $0["protocol"] as? String == "tcp" })
        #expect(quic["nameSource"] as? String == "quic")
        #expect(web["nameSource"] as? String == "dns")
        #expect(web["otherNames"] as? [String] == ["alias.example"])
        #expect(web["tlsStatus"] as? String == "plaintext")
        await fixture.close()
    }

    @Test("each connection carries its reason, both legs' facts and how the server ended, as flows --json writes them")
    func inspectionFields() async throws {
        var inspected = ExportHistoryFixture.record(port: 40_003, lastSeen: 5_000_000, sni: "shop.example", status: .inspected)
        inspected.leafTLS = NegotiatedTLS(version: .tls12, cipherSuite: TLSCipherSuite(rawValue: 0xC02F), fromHelloRetryRequest: false,
                                          source: .tunnelLeaf)
        inspected.serverEnding = .reset
        var verification = ExportHistoryFixture.record(port: 40_004, lastSeen: 6_000_000, sni: "expired.example")
        verification.inspectionReason = InspectionReason(.upstreamVerificationFailed, detail: "certificate has expired")
        let fixture = try ExportHistoryFixture()
        let flows = try await fixture.write([inspected, verification])
        let entries = try #require(try exportDocument(FlowExport.document(flows, exportedAt: Self.exportedAt))["connections"]
            as? [[String: Any]])
        let shop = try #require(entries.first { $0["name"] as? String == "shop.example" })
        #expect((shop["leafTLS"] as? [String: Any])?["version"] as? Int == 0x0303)
        #expect((shop["leafTLS"] as? [String: Any])?["cipherSuite"] as? Int == 0xC02F)
        #expect(shop["serverEnding"] as? String == "reset" && shop["inspectionReason"] is NSNull)
        let expired = try #require(entries.first { $0["name"] as? String == "expired.example" })
        #expect(expired["inspectionReason"] as? String == "upstreamVerificationFailed")
        #expect(expired["inspectionDetail"] as? String == "certificate has expired")
        #expect(expired["leafTLS"] is NSNull && expired["serverEnding"] is NSNull)
        await fixture.close()
    }

    @Test("an export is told from a stranger's file by its first bytes")
    func signature() {
        #expect(FlowExport.isExport(prefix: Array(FlowExport.document([], exportedAt: Self.exportedAt))))
        #expect(!FlowExport.isExport(prefix: Array(#"{"format":"other"}"#.utf8)))
        #expect(!FlowExport.isExport(prefix: Array("notes".utf8)))
    }
}
