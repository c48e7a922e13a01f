import App
import Foundation
import Shared
import Testing
import TestSupport

/// HTTP/2 read back from an inspected connection's two kept streams, checked against Python's
/// `h2` — a client and a server talking in memory, each side's own events the expected answer.
@Suite struct HTTP2ConversationTests {
    typealias C = DecryptedChunks

    static func bytes(_ hex: String) -> Data { HexText.data(hex) }

    static func content(client: Data, server: Data, clientCarried: Int? = nil, serverCarried: Int? = nil) -> DecryptedContent {
        DecryptedContent([C.chunk(.outbound, client, carried: clientCarried), C.chunk(.inbound, server, carried: serverCarried, at: 5)],
                         connectionStart: C.start)
    }

    static func pairs(_ fields: [HTTPField]) -> [[String]] { fields.map { [$0.name, $0.value] } }

    /// The oracle's conversation: both sides' bytes and each stream as `h2` read it.
    static func oracle() throws -> (client: Data, server: Data, streams: [[String: Any]]) {
        let out = try #require(try PythonOracle.json(HTTP2Oracle.conversationScript) as? [String: Any])
        return (bytes(out["client"] as? String ?? ""), bytes(out["server"] as? String ?? ""), out["streams"] as? [[String: Any]] ?? [])
    }

    @Test("every stream of an h2 client and server reads as h2 read it: headers, bodies, trailers, 103, a push, CONTINUATION, a reset")
    func againstPythonH2() throws {
        let oracle = try Self.oracle()
        let content = Self.content(client: oracle.client, server: oracle.server)
        guard case let .http2(conversation) = content.application else { Issue.record("not read as HTTP/2"); return }
        // Client streams in order, the pushed one right after the stream that promised it.
        #expect(conversation.exchanges.map(\.stream) == [1, 3, 5, 2, 7])
        for expected in oracle.streams {
            let id = try #require(expected["id"] as? Int)
            let exchange = try #require(conversation.exchanges.first { $0.stream == UInt32(id) })
            let request = try #require(exchange.request, "stream \(id)")
            let expectedRequest = try #require(expected["request"] as? [[String]] ?? (id == 7 ? [] : nil))
            if id != 7 { #expect(Self.pairs(request.fields) == expectedRequest, "stream \(id)") }
            #expect(request.startLine.hasSuffix(" HTTP/2"))
            #expect(request.body.bytes == Self.bytes(expected["requestBody"] as? String ?? ""), "stream \(id)")
            #expect(Self.pairs(request.trailers) == expected["requestTrailers"] as? [[String]], "stream \(id)")
            #expect(exchange.interim.map { Self.pairs($0.fields) } == expected["interim"] as? [[[String]]], "stream \(id)")
            let response = try #require(exchange.response, "stream \(id)")
            #expect(Self.pairs(response.fields) == expected["response"] as? [[String]], "stream \(id)")
            #expect(response.body.bytes == Self.bytes(expected["responseBody"] as? String ?? ""), "stream \(id)")
            #expect(response.body.isComplete == (expected["responseEnded"] as? Bool), "stream \(id)")
            #expect(Self.pairs(response.trailers) == expected["responseTrailers"] as? [[String]], "stream \(id)")
            #expect(exchange.promisedBy.map(Int.init) == expected["promisedBy"] as? Int, "stream \(id)")
        }
        let post = try #require(conversation.exchanges.first { $0.stream == 3 })
        #expect(post.request?.startLine == "POST /api/items?x=1 HTTP/2" && post.response?.startLine == "HTTP/2 201")
        #expect(post.interim.map(\.startLine) == ["HTTP/2 103"])
        let big = try #require(conversation.exchanges.first { $0.stream == 7 }?.request)
        #expect(big.field("x-large")?.count == 20_000)   // sent in HEADERS and CONTINUATION
        #expect(conversation.exchanges.first { $0.stream == 7 }?.notes == ["the client reset the stream: CANCEL (0x8)"])
        #expect(conversation.exchanges.first { $0.stream == 2 }?.notes.first?.hasPrefix("pushed by the server with stream 5's response") == true)
        #expect(conversation.notes == ["the server closed the connection (GOAWAY): NO_ERROR (0x0), last stream 7, saying \"done\""])
        #expect(content.protocolLine == "HTTP/2: 5 streams on this connection, each a request and its response (1 pushed by the server)")
    }

    @Test("HTTP/2 bodies are shown as HTTP/1.1's are: text as text, JSON indented, each said with its size")
    func inspectorShowsStreams() throws {
        let oracle = try Self.oracle()
        let content = Self.content(client: oracle.client, server: oracle.server)
        let exchanges = try #require(content.application.exchanges)
        #expect(exchanges.count == 5)
        let response = try #require(exchanges[0].response)
        let shown = DecryptedBodyPresentation(response.body, of: response)
        #expect(shown == .bytes(.text("<html><body>hello over HTTP/2</body></html>")))
        #expect(response.body.framing == .frames && response.body.summary(shown) == "43 bytes")
        let post = try #require(exchanges[1].response)
        #expect(DecryptedBodyPresentation(post.body, of: post) == .json("{\n  \"id\": 7,\n  \"name\": \"first\"\n}"))
    }

    @Test("kept by the budget, each stream keeps every header as h2 read it and its body's beginning, and says the body's true length")
    func budgetKeepsEveryStreamsStart() throws {
        let oracle = try Self.oracle()
        let chunks = C.kept([(.outbound, oracle.client), (.inbound, oracle.server)],
                            limits: .init(bytesPerTurn: 16, bytesPerDirection: 1 << 20), size: 1_000)
        #expect(chunks.contains { $0.bytes.count < $0.originalLength }, "the budget should have cut something")
        let content = DecryptedContent(chunks, connectionStart: C.start)
        guard case let .http2(conversation) = content.application else { Issue.record("not read as HTTP/2"); return }
        #expect(conversation.exchanges.map(\.stream) == [1, 3, 5, 2, 7])
        for expected in oracle.streams {
            let id = try #require(expected["id"] as? Int)
            let exchange = try #require(conversation.exchanges.first { $0.stream == UInt32(id) })
            let response = try #require(exchange.response, "stream \(id)")
            #expect(Self.pairs(response.fields) == expected["response"] as? [[String]], "stream \(id)")
            let body = Self.bytes(expected["responseBody"] as? String ?? "")
            // Its beginning, at most 16 bytes of DATA payload (a padded frame's padding counts in them).
            let kept = response.body.bytes
            #expect(kept == body.prefix(kept.count) && kept.count <= 16 && (kept.count > 0 || body.isEmpty), "stream \(id)")
            if kept.count < body.count {
                #expect(response.body.cutByBudget && !response.body.isComplete, "stream \(id)")
                #expect(response.body.carried == body.count && response.body.carriedIsTotal, "stream \(id)")
                let summary = response.body.summary(DecryptedBodyPresentation(response.body, of: response))
                #expect(summary.hasPrefix("\(kept.count) bytes kept of \(FlowInspector.grouped(body.count)) — the rest was not kept"), "\(summary)")
            } else {
                #expect(response.body.isComplete == (expected["responseEnded"] as? Bool), "stream \(id)")
            }
        }
        #expect(conversation.notes == ["the server closed the connection (GOAWAY): NO_ERROR (0x0), last stream 7, saying \"done\""])
    }

    @Test("where the budget kept no more frame headers, the rest of that side is said not kept and its open bodies cut by it")
    func budgetCut() throws {
        let oracle = try Self.oracle()
        // Keep the server's bytes up to the middle of stream 1's first DATA frame, nothing after.
        let marker = Data("<html>".utf8)
        let cutAt = try #require(oracle.server.range(of: marker)).upperBound
        let content = Self.content(client: oracle.client, server: oracle.server.prefix(cutAt), serverCarried: oracle.server.count)
        guard case let .http2(conversation) = content.application else { Issue.record("not read as HTTP/2"); return }
        let first = try #require(conversation.exchanges.first)
        let body = try #require(first.response?.body)
        #expect(body.bytes.count > 0 && Data(body.bytes.suffix(marker.count)) == marker && body.cutByBudget && !body.isComplete)
        #expect(body.carriedIsTotal == false)
        #expect(conversation.exchanges.dropFirst().allSatisfy { $0.response == nil })
        #expect(content.responseMissing.hasPrefix("not kept (the budget for what was received ran out"))
        #expect(conversation.notes.contains { $0.hasPrefix("the last ") && $0.hasSuffix("bytes received were not kept: the budget for this connection ran out") })
    }

    @Test("a header block that cannot be decoded stops that side's headers from there, says why, and keeps its DATA")
    func brokenHeaderBlock() {
        let preface = Data(HTTP2Connection.preface)
        // HEADERS on stream 1 (END_HEADERS) whose block indexes entry 70 of an empty dynamic table,
        // then DATA on stream 1 (END_STREAM) and a good HEADERS block on stream 3.
        let badHeaders = Data([0, 0, 1, 0x01, 0x04, 0, 0, 0, 1, 0xc6])
        let data = Data([0, 0, 2, 0x00, 0x01, 0, 0, 0, 1, 0x68, 0x69])
        let goodHeaders = Data([0, 0, 1, 0x01, 0x05, 0, 0, 0, 3, 0x82])
        let content = Self.content(client: preface + badHeaders + data + goodHeaders, server: Data())
        guard case let .http2(conversation) = content.application else { Issue.record("not read as HTTP/2"); return }
        #expect(conversation.notes == ["the client's header blocks could not be read from here on: the header block of stream 1 "
                                       + "could not be decoded: a reference to table entry 70, which does not exist"])
        #expect(conversation.exchanges.map(\.stream) == [1])
        #expect(conversation.exchanges.first?.request == nil)
        #expect(content.requestMissing == "its headers could not be read (see the notes below)")
    }

    @Test("a HEADERS frame flagged PRIORITY but shorter than its priority fields is a problem said, not a block misread")
    func shortPriorityHeaders() {
        let preface = Data(HTTP2Connection.preface)
        let short = Data([0, 0, 3, 0x01, 0x24, 0, 0, 0, 1, 0x80, 0x00, 0x82])   // END_HEADERS | PRIORITY, 3 bytes
        let content = Self.content(client: preface + short, server: Data())
        guard case let .http2(conversation) = content.application else { Issue.record("not read as HTTP/2"); return }
        #expect(conversation.notes == ["the client's header blocks could not be read from here on: a HEADERS frame of stream 1 "
                                       + "shorter than its priority fields"])
        #expect(conversation.exchanges.isEmpty)
    }

    @Test("a DATA frame padded past its end is counted and said, not read")
    func overPaddedData() {
        let preface = Data(HTTP2Connection.preface)
        let headers = Data([0, 0, 1, 0x01, 0x04, 0, 0, 0, 1, 0x82])
        let overPadded = Data([0, 0, 3, 0x00, 0x08, 0, 0, 0, 1, 9, 0x68, 0x69])   // pad length 9 in a 3-byte payload
        let content = Self.content(client: preface + headers + overPadded, server: Data())
        guard case let .http2(conversation) = content.application else { Issue.record("not read as HTTP/2"); return }
        #expect(conversation.notes == ["1 DATA frame padded past its end was not read"])
        #expect(conversation.exchanges.first?.request?.body.bytes.isEmpty == true)
    }

    @Test("a HEADERS block not continued by CONTINUATION on its stream is a problem said once")
    func interruptedContinuation() {
        let preface = Data(HTTP2Connection.preface)
        let open = Data([0, 0, 1, 0x01, 0x00, 0, 0, 0, 1, 0x82])            // no END_HEADERS
        let ping = Data([0, 0, 8, 0x06, 0x00, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 8))
        let content = Self.content(client: preface + open + ping, server: Data())
        guard case let .http2(conversation) = content.application else { Issue.record("not read as HTTP/2"); return }
        #expect(conversation.notes == ["the client's header blocks could not be read from here on: a header block of stream 1 "
                                       + "was not continued (RFC 9113 §6.10)"])
    }
}
