import Foundation
import Shared
import Testing
import TestSupport
@testable import App

/// The fingerprints in every document that shows a flow — `flows --json`, `flow ID --json`,
/// `export --json` — and in the text forms, the same object and the same words everywhere.
@Suite("TLS fingerprints in the flow documents")
struct TLSFingerprintWordingTests {
    static let client = ClientHelloFingerprints(ja4: "t13d1516h2_8daaf6152771_e5627efa2ab1",
                                                ja3Full: "769,47-53-5-10-49161-49162-49171-49172-50-56-19-4,0-10-11,23-24-25,0",
                                                ja3: "ada70206e40642a3e4461f35503241d5")
    static let server = ServerHelloFingerprints(ja3sFull: "771,49199,65281-0-11", ja3s: "0123456789abcdef0123456789abcdef")

    static func flow(printed: Bool) -> HistoryFlow {
        let key = FlowKey(proto: .tcp, source: IPEndpoint(address: IPAddress(parsing: "198.18.0.2")!, port: 40_000),
                          destination: IPEndpoint(address: IPAddress(parsing: "198.19.0.2")!, port: 443))
        let answer = ServerTLSAnswer.negotiated(NegotiatedTLS(version: .tls12, cipherSuite: TLSCipherSuite(rawValue: 0xC02F),
                                                              fromHelloRetryRequest: false, source: .serverHello))
        return HistoryFlow(StoredFlow(id: 7, key: key, firstSeen: Date(timeIntervalSince1970: 1_800_000_000), tlsStatus: .encrypted,
                                      serverTLS: answer, clientTLS: ClientTLSOffer(versions: .upTo(.tls12)),
                                      clientFingerprints: printed ? client : nil, serverFingerprints: printed ? server : nil))
    }

    /// `fingerprints` of each document, as Python reads it.
    static func documents(_ flow: HistoryFlow) throws -> [String] {
        var listed = JSONWriter()
        HistoryFlowWording.write(flow, after: nil, to: &listed)
        var exported = JSONWriter()
        var stamps = UTCTimestamp()
        FlowExport.entry(flow, &exported, stamps: &stamps)
        let inspected = FlowInspector(flow: flow, packets: [], storedPacketCount: 0).json()
        return try [listed.writer.string, exported.writer.string, inspected].map { try PythonJSON.value($0, "fingerprints") }
    }

    @Test("flows, flow and export --json write the same fingerprints object: JA4, JA3 and JA3S, hash and string")
    func documents() throws {
        // Python prints the keys sorted.
        let expected = #"{"ja3": "ada70206e40642a3e4461f35503241d5", "#
            + #""ja3Full": "769,47-53-5-10-49161-49162-49171-49172-50-56-19-4,0-10-11,23-24-25,0", "#
            + #""ja3s": "0123456789abcdef0123456789abcdef", "ja3sFull": "771,49199,65281-0-11", "#
            + #""ja4": "t13d1516h2_8daaf6152771_e5627efa2ab1"}"#
        #expect(try Self.documents(Self.flow(printed: true)) == Array(repeating: expected, count: 3))
        #expect(try Self.documents(Self.flow(printed: false)) == ["null", "null", "null"])
    }

    @Test("flow ID's text says them under what the handshake said; the Inspector's handshake facts do not repeat them")
    func text() {
        let inspector = FlowInspector(flow: Self.flow(printed: true), packets: [], storedPacketCount: 0)
        let text = inspector.text()
        #expect(text.contains("    JA4: t13d1516h2_8daaf6152771_e5627efa2ab1\n"))
        #expect(text.contains("    JA3: ada70206e40642a3e4461f35503241d5 (769,47-53-5-10-49161-49162-49171-49172-50-56-19-4,0-10-11,23-24-25,0)\n"))
        #expect(text.contains("    JA3S: 0123456789abcdef0123456789abcdef (771,49199,65281-0-11)\n"))
        #expect(!inspector.handshakeFacts.contains { $0.label.hasPrefix("JA") })
    }
}
