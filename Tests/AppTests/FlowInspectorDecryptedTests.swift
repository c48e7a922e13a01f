import App
import Fixtures
import Foundation
import Shared
import Testing
import TestSupport

@Suite struct FlowInspectorDecryptedTests {
    typealias C = DecryptedChunks

    static let json = #"{"b":2,"a":[true]}"#
    static let exchange = [C.chunk(.outbound, HTTP1ConversationTests.rfcRequest, at: 3),
                           C.chunk(.inbound, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(json.utf8.count)\r\n\r\n" + json, at: 40)]

    /// A stored flow with `status` and the inspector `FlowInspection` makes of it with `decrypted` as its seam.
    static func inspector(status: TLSInspectionStatus, keeping: Bool = true, facts: (inout FlowRecord) -> Void = { _ in },
                          decrypted: (@Sendable (Int64) async throws -> [DecryptedChunk])?) async throws -> (FlowInspector, Int64) {
        let history = try InspectorHistory()
        let id = try await history.record(InspectorHistory.tcpKey, try InspectorHistory.tcpConversation(), sni: "shop.test", status: status,
                                          facts: facts)
        let inspection = FlowInspection(store: history.store, library: CaptureLibrary(dataDirectory: history.dataDirectory),
                                        decrypted: decrypted, keepsDecryptedContent: keeping)
        let inspector = try await inspection.inspector(flowID: id)
        try await history.close()
        return (inspector, id)
    }

    @Test("an inspected HTTP/1.1 flow shows its request and response, the JSON body indented and marked as inspected, in text and JSON")
    func inspectedExchange() async throws {
        let asked = Asked()
        let (inspector, id) = try await Self.inspector(status: .inspected) { id in await asked.note(id); return Self.exchange }
        #expect(await asked.ids == [id])
        let text = inspector.text()
        #expect(text.contains("  Decrypted content (inspected with your local CA):\n    HTTP/1.1: 1 request on this connection"))
        #expect(text.contains("    Request 1: GET /hello.txt HTTP/1.1\n      User-Agent: curl/7.64.1"))
        #expect(text.contains("    Response 1: HTTP/1.1 200 OK"))
        #expect(text.contains("      (18 bytes, JSON, indented here)\n        {\n          \"b\": 2,\n          \"a\": [\n            true\n          ]\n        }"))
        let json = inspector.json()
        #expect(try PythonJSON.value(json, "decrypted.marking") == "\"inspected with your local CA\"")
        #expect(try PythonJSON.value(json, "decryptedNote") == "null")
        #expect(try PythonJSON.value(json, "decrypted.protocol") == "\"HTTP/1.1\"")
        #expect(try PythonJSON.value(json, "decrypted.http.0.request.method") == "\"GET\"")
        #expect(try PythonJSON.value(json, "decrypted.http.0.request.headers.1") == "[\"Host\", \"www.example.com\"]")
        #expect(try PythonJSON.value(json, "decrypted.http.0.response.status") == "200")
        #expect(try PythonJSON.value(json, "decrypted.http.0.response.body.kind") == "\"json\"")
        #expect(try PythonJSON.value(json, "decrypted.http.0.response.body.text") == #""{\n  \"b\": 2,\n  \"a\": [\n    true\n  ]\n}""#)
        #expect(try PythonJSON.value(json, "decrypted.turns.1.direction") == "\"received\"")
        #expect(try PythonJSON.value(json, "decrypted.turns.0.storedBytes") == "\(HTTP1ConversationTests.rfcRequest.utf8.count)")
        #expect(try PythonJSON.value(json, "decrypted.turns.0.truncated") == "false")
        #expect(try PythonJSON.value(json, "decrypted.turns.0.text") == "\"" + HTTP1ConversationTests.rfcRequest.replacingOccurrences(of: "\r\n", with: "\\r\\n") + "\"")
    }

    @Test("a flow that is not HTTP shows its turns, a cut one with both lengths and a binary one as hex with its dump")
    func turnsInTextAndJSON() async throws {
        let binary = Data((0..<40).map { UInt8($0) })
        let (inspector, _) = try await Self.inspector(status: .inspected) { _ in
            [C.chunk(.outbound, "HELO shop.test\r\n", at: 1), C.chunk(.inbound, binary, carried: 100_000, at: 2)]
        }
        let text = inspector.text()
        #expect(text.contains("    Turn 1: sent, ") && text.contains("      HELO shop.test"))
        #expect(text.contains("40 bytes kept of 100 000 — the rest of this turn was not kept"))
        #expect(text.contains("      0000  00 01 02 03 04 05 06 07  08 09 0a 0b 0c 0d 0e 0f  ................"))
        let json = inspector.json()
        #expect(try PythonJSON.value(json, "decrypted.protocol") == "null")
        #expect(try PythonJSON.value(json, "decrypted.turns.1.originalBytes") == "100000")
        #expect(try PythonJSON.value(json, "decrypted.turns.1.note") == "\"the rest of this turn was not kept\"")
        #expect(try PythonJSON.value(json, "decrypted.turns.1.hex") == "\"" + PacketBytesPresentation.hex([UInt8](binary)) + "\"")
        #expect(throws: PythonJSON.Refusal.self) { try PythonJSON.value(json, "decrypted.turns.1.text") }
        #expect(throws: PythonJSON.Refusal.self) { try PythonJSON.value(json, "decrypted.http") }
    }

    @Test("the empty cases are told apart: pinned as a guarantee, not inspected, not encrypted, keeping off, expired, unreadable")
    func emptyCases() async throws {
        let never: @Sendable (Int64) async throws -> [DecryptedChunk] = { _ in Issue.record("read for a flow that was not inspected"); return [] }
        let pinned = try await Self.inspector(status: .notInspectable, decrypted: never).0
        #expect(pinned.text().contains("  Decrypted content: " + DecryptedSection.pinnedGuarantee))
        #expect(DecryptedSection.pinnedGuarantee.contains("it pins, or trusts a store this run did not reach"))
        #expect(try PythonJSON.value(pinned.json(), "decryptedNote") == "\"\(DecryptedSection.pinnedGuarantee)\"")
        #expect(throws: PythonJSON.Refusal.self) { try PythonJSON.value(pinned.json(), "decrypted") }   // absent, not empty
        #expect(try await Self.inspector(status: .encrypted, decrypted: never).0.decryptedSection?.note == DecryptedSection.notInspected)
        #expect(try await Self.inspector(status: .plaintext, decrypted: never).0.decryptedSection?.note == DecryptedSection.notEncrypted)

        let off = try await Self.inspector(status: .inspected, keeping: false) { _ in [] }.0
        #expect(off.decryptedSection?.note == DecryptedSection.keepingOff)
        #expect(off.text().contains("'tunnelvision settings set plaintext-persistence on' keeps it"))
        #expect(try PythonJSON.value(off.json(), "decrypted.turns") == "[]")
        let expired = try await Self.inspector(status: .inspected, keeping: true) { _ in [] }.0
        #expect(expired.text().contains("none of its decrypted content is kept any more: it expired or was deleted"))

        struct IndexUnreadable: Error, CustomStringConvertible { var description: String { "the plaintext index is locked" } }
        let failed = try await Self.inspector(status: .inspected) { _ in throw IndexUnreadable() }.0
        #expect(failed.decryptedSection?.note == "its decrypted content could not be read: the plaintext index is locked")
        #expect(throws: PythonJSON.Refusal.self) { try PythonJSON.value(failed.json(), "decrypted") }   // a failure is never "none kept"

        let unread = try await Self.inspector(status: .inspected, decrypted: nil).0   // the section waits for its index
        #expect(unread.decryptedSection == nil && !unread.text().contains("Decrypted content"))
        #expect(pinned.facts.last?.value == "kept private: " + DecryptedSection.pinnedGuarantee)
    }
}

/// What `flow ID` says of inspection itself: the two legs, how the server ended, why not inspected.
@Suite struct FlowInspectorInspectionTests {
    static let leaf = NegotiatedTLS(version: .tls13, cipherSuite: TLSCipherSuite(rawValue: 0x1302), fromHelloRetryRequest: false,
                                    source: .tunnelLeaf)
    static let upstream = NegotiatedTLS(version: .tls12, cipherSuite: TLSCipherSuite(rawValue: 0xC02F), fromHelloRetryRequest: false,
                                        source: .upstreamConnection)

    @Test("an inspected flow says both legs, each labelled with whose it was, how the server ended, and that a short body was the server's doing")
    func bothLegsAndTheEnding() async throws {
        // 10 bytes of a declared 40, nothing cut by the budget, and the server ended without close_notify.
        let chunks = [DecryptedChunks.chunk(.outbound, "GET / HTTP/1.1\r\nHost: shop.test\r\n\r\n", at: 3),
                      DecryptedChunks.chunk(.inbound, "HTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\n0123456789", at: 40)]
        let (inspector, _) = try await FlowInspectorDecryptedTests.inspector(status: .inspected, facts: { record in
            record.leafTLS = Self.leaf
            record.serverTLS = .negotiated(Self.upstream)
            record.serverEnding = .withoutCloseNotify
        }) { _ in chunks }
        let text = inspector.text()
        #expect(text.contains(FlowInspector.leafLabel + ": TLS 1.3 · cipher suite TLS_AES_256_GCM_SHA384"))
        #expect(text.contains(FlowInspector.upstreamLabel + ": TLS 1.2 · cipher suite TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"))
        #expect(text.contains("server ended: without close_notify"))
        #expect(text.contains("10 bytes of 40 — the connection ended before the rest was sent"))
        #expect(text.contains("the server ended the connection without close_notify: what it sent last may be cut short"))
        #expect(!text.contains("budget"))
        let json = inspector.json()
        #expect(try PythonJSON.value(json, "leafTLS.version") == "772")
        #expect(try PythonJSON.value(json, "serverAnswer.version") == "771")
        #expect(try PythonJSON.value(json, "serverEnding") == "\"withoutCloseNotify\"")
        #expect(try PythonJSON.value(json, "encryptionLabel") == "\"Inspected\"")
        #expect(try PythonJSON.value(json, "decrypted.endingNote").contains("not by what TunnelVision keeps"))
        #expect(try PythonJSON.value(json, "decrypted.http.0.responseMissing") == "null")
    }

    @Test("a flow not inspected says why, with its status and the detail in the words of whoever gave it")
    func reasonSaid() async throws {
        let never: @Sendable (Int64) async throws -> [DecryptedChunk] = { _ in [] }
        let (inspector, _) = try await FlowInspectorDecryptedTests.inspector(status: .encrypted, facts: { record in
            record.inspectionReason = InspectionReason(.upstreamVerificationFailed, detail: "certificate has expired")
        }, decrypted: never)
        let said = "not inspected (passed through untouched): the server failed verification, so the app was shown the server's "
            + "own certificate to judge for itself (certificate has expired)"
        #expect(inspector.text().contains("inspection: " + said))
        #expect(try PythonJSON.value(inspector.json(), "inspectionReason") == "\"upstreamVerificationFailed\"")
        #expect(try PythonJSON.value(inspector.json(), "inspectionDetail") == "\"certificate has expired\"")
        #expect(try PythonJSON.value(inspector.json(), "handshake").contains(said))
    }
}

actor Asked {
    private(set) var ids: [Int64] = []
    func note(_ id: Int64) { ids.append(id) }
}
