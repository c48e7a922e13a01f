import App
import Foundation
import Shared
import Testing
import TestSupport

@Suite struct HTTP1ConversationTests {
    typealias C = DecryptedChunks

    /// RFC 9110 §1.2's example exchange, as a client and server send it.
    static let rfcRequest = "GET /hello.txt HTTP/1.1\r\nUser-Agent: curl/7.64.1\r\nHost: www.example.com\r\nAccept-Language: en, mi\r\n\r\n"
    static let rfcResponse = "HTTP/1.1 200 OK\r\nDate: Mon, 27 Jul 2009 12:28:53 GMT\r\nServer: Apache\r\n"
        + "Last-Modified: Wed, 22 Jul 2009 19:15:56 GMT\r\nETag: \"34aa387-d-1568eb00\"\r\nAccept-Ranges: bytes\r\n"
        + "Content-Length: 51\r\nVary: Accept-Encoding\r\nContent-Type: text/plain\r\n\r\n"
        + "Hello World! My content includes a trailing CRLF.\r\n"

    static func conversation(_ chunks: [DecryptedChunk]) -> HTTP1Conversation? {
        guard case let .http1(conversation) = DecryptedApplication(DecryptedTurns(chunks)) else { return nil }
        return conversation
    }

    @Test("RFC 9110's example exchange reads as one request and its response, fields in order and the body whole")
    func oneExchange() throws {
        let http = try #require(Self.conversation([C.chunk(.outbound, Self.rfcRequest), C.chunk(.inbound, Self.rfcResponse, at: 40)]))
        #expect(http.exchanges.count == 1 && http.unreadSentBytes == 0 && http.unreadReceivedBytes == 0)
        let request = try #require(http.exchanges[0].request), response = try #require(http.exchanges[0].response)
        #expect(request.start == .request(method: "GET", target: "/hello.txt", version: "HTTP/1.1"))
        #expect(request.fields.map(\.name) == ["User-Agent", "Host", "Accept-Language"] && request.field("host") == "www.example.com")
        #expect(request.body == .empty && request.body.summary(DecryptedBodyPresentation(request.body, of: request)) == "no body")
        #expect(response.startLine == "HTTP/1.1 200 OK" && response.field("ETag") == "\"34aa387-d-1568eb00\"")
        #expect(response.body.framing == .length(51) && response.body.isComplete)
        let shown = DecryptedBodyPresentation(response.body, of: response)
        #expect(shown == .bytes(.text("Hello World! My content includes a trailing CRLF.\r\n")))
        #expect(response.body.summary(shown) == "51 bytes")
    }

    @Test("requests pipelined on one keep-alive connection pair with their responses in order, and a response to HEAD has no body")
    func keepAlivePipelined() throws {
        let sent = "HEAD /big HTTP/1.1\r\nHost: a.test\r\n\r\nPOST /form HTTP/1.1\r\nHost: a.test\r\nContent-Length: 7\r\n\r\na=1&b=2"
            + "GET /last HTTP/1.1\r\nHost: a.test\r\n\r\n"
        let received = "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n"       // HEAD: the length of what GET would send
            + "HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok" + "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"
        let http = try #require(Self.conversation([C.chunk(.outbound, sent), C.chunk(.inbound, received, at: 5)]))
        #expect(http.exchanges.map { $0.request?.method } == ["HEAD", "POST", "GET"])
        #expect(http.exchanges.map { $0.response?.status } == [200, 201, 404])
        #expect(http.exchanges[0].response?.body == .empty)
        #expect(http.exchanges[1].request?.body.bytes == Data("a=1&b=2".utf8) && http.exchanges[1].response?.body.bytes == Data("ok".utf8))
        let notFound = try #require(http.exchanges[2].response)
        #expect(notFound.body.summary(DecryptedBodyPresentation(notFound.body, of: notFound)) == "an empty body")
    }

    @Test("a chunked body is decoded (RFC 9112 §7.1), extensions and trailers read past, and it is said to be chunked")
    func chunked() throws {
        let received = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n"
            + "4;name=value\r\nWiki\r\n5\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\nExpires: never\r\n\r\n"
        let http = try #require(Self.conversation([C.chunk(.outbound, Self.rfcRequest), C.chunk(.inbound, received)]))
        let response = try #require(http.exchanges[0].response)
        #expect(response.body.framing == .chunked && response.body.isComplete)
        #expect(String(decoding: response.body.bytes, as: UTF8.self) == "Wikipedia in\r\n\r\nchunks.")
        #expect(response.body.summary(DecryptedBodyPresentation(response.body, of: response)) == "23 bytes (chunked, shown joined)")
        #expect(http.unreadReceivedBytes == 0)
    }

    @Test("a JSON body is indented in the server's own key order with its numbers as spelled, and marked as JSON")
    func jsonIndented() throws {
        let body = #"{"zebra": 1, "apple":[1,2.50,{},[]],"text":"a, b: {c}\" ]","nested":{"k":null,"t":true}}"#
        let received = "HTTP/1.1 200 OK\r\nContent-Type: application/vnd.api+json; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
        let http = try #require(Self.conversation([C.chunk(.outbound, Self.rfcRequest), C.chunk(.inbound, received)]))
        let response = try #require(http.exchanges[0].response)
        let shown = DecryptedBodyPresentation(response.body, of: response)
        #expect(shown == .json("""
            {
              "zebra": 1,
              "apple": [
                1,
                2.50,
                {},
                []
              ],
              "text": "a, b: {c}\\" ]",
              "nested": {
                "k": null,
                "t": true
              }
            }
            """))
        #expect(response.body.summary(shown) == "\(body.utf8.count) bytes, JSON, indented here")
        // Not JSON after all: shown as text, never an error.
        let broken = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 9\r\n\r\n{\"a\": 1,"
        let other = try #require(Self.conversation([C.chunk(.outbound, Self.rfcRequest), C.chunk(.inbound, broken)]))
        let response2 = try #require(other.exchanges[0].response)
        #expect(DecryptedBodyPresentation(response2.body, of: response2) == .bytes(.text("{\"a\": 1,")))
    }

    @Test("a body the budget cut says how much of its declared length was kept and is not indented as JSON")
    func bodyCutByTheBudget() throws {
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n"
        let kept = head + "{\"items\": [1, 2, 3"
        let http = try #require(Self.conversation([C.chunk(.outbound, Self.rfcRequest), C.chunk(.inbound, kept, carried: head.utf8.count + 5000)]))
        let response = try #require(http.exchanges[0].response)
        #expect(!response.body.isComplete && response.body.bytes.count == 18)
        let shown = DecryptedBodyPresentation(response.body, of: response)
        #expect(shown == .bytes(.text("{\"items\": [1, 2, 3")))
        #expect(response.body.summary(shown) == "18 bytes kept of 5 000 — the rest was not kept")
        // A body that runs to the connection's close is cut when its direction was.
        let untilClose = "HTTP/1.0 200 OK\r\n\r\nsome text"
        let closing = try #require(Self.conversation([C.chunk(.outbound, Self.rfcRequest), C.chunk(.inbound, untilClose, carried: 90_000)]))
        #expect(closing.exchanges[0].response?.body.framing == .untilClose && closing.exchanges[0].response?.body.isComplete == false)
        let whole = try #require(Self.conversation([C.chunk(.outbound, Self.rfcRequest), C.chunk(.inbound, untilClose)]))
        #expect(whole.exchanges[0].response?.body.isComplete == true)
    }

    @Test("204 and 304 have no body even with a length, and 100 Continue is an interim answer before the final one")
    func responsesWithoutBody() throws {
        let sent = "PUT /a HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nhi"
            + "GET /b HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"1\"\r\n\r\nGET /c HTTP/1.1\r\nHost: x\r\n\r\n"
        let received = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n"
            + "HTTP/1.1 304 Not Modified\r\nETag: \"1\"\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nz"
        let http = try #require(Self.conversation([C.chunk(.outbound, sent), C.chunk(.inbound, received)]))
        #expect(http.exchanges.map { $0.response?.status } == [204, 304, 200])
        #expect(http.exchanges[0].interim.map(\.startLine) == ["HTTP/1.1 100 Continue"])
        #expect(http.exchanges[0].response?.body == .empty && http.exchanges[1].response?.body == .empty)
        #expect(http.exchanges[2].response?.body.bytes == Data("z".utf8))
    }

    @Test("what does not read as HTTP/1.1 falls back to the turns: a bad header, a bad status line, an unasked response, bytes")
    func malformedFallsBackToTurns() {
        func application(_ sent: String, _ received: String) -> DecryptedApplication {
            DecryptedApplication(DecryptedTurns([C.chunk(.outbound, sent), C.chunk(.inbound, received)]))
        }
        #expect(application("GET / HTTP/1.1\r\nno colon here\r\n\r\n", "") == .unrecognized)
        #expect(application("GET / HTTP/1.1\r\n\r\n", "HTTP/1.1 OK 200\r\n\r\n") == .unrecognized)
        #expect(application("GET / HTTP/1.1\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200 OK\r\n\r\n") == .unrecognized)
        #expect(application("GET / HTTP/1.1\r\nContent-Length: 1, 2\r\n\r\n", "") == .unrecognized)
        #expect(application("SSH-2.0-OpenSSH_9.2\r\n", "SSH-2.0-OpenSSH_9.2\r\n") == .unrecognized)
        #expect(application("hello", "") == .unrecognized)
        #expect(DecryptedApplication(DecryptedTurns([C.chunk(.outbound, Data([0x16, 0x03, 0x01, 0x00, 0x0A, 0x0D, 0x0A]))])) == .unrecognized)
        #expect(DecryptedApplication(DecryptedTurns([])) == .unrecognized)
    }

    @Test("HTTP/2's connection preface names the connection HTTP/2 with no stream yet, and a frame cut short is said, not read")
    func http2Named() throws {
        let preface = Data("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + Data([0x00, 0x00, 0x12, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00,
                                                                             0x00, 0x03, 0x00, 0x00, 0x00, 0x64, 0x00, 0x04])
        let content = DecryptedContent([C.chunk(.outbound, preface), C.chunk(.inbound, Data([0x00, 0x00, 0x00, 0x04, 0x01, 0, 0, 0, 0]))],
                                       connectionStart: C.start)
        guard case let .http2(conversation) = content.application else { Issue.record("not read as HTTP/2"); return }
        #expect(content.application.name == "HTTP/2" && conversation.exchanges.isEmpty)
        #expect(content.protocolLine == "HTTP/2: 0 streams on this connection, each a request and its response")
        #expect(content.httpNotes == ["the last 17 bytes sent begin a frame that did not come whole"])
        if case .dump = content.turns.turns[0].rendering {} else { Issue.record("the preface turn should be a dump") }
    }

    @Test("a gzip body is decoded for display, both sizes said, its JSON indented; a coding not known is named, not decoded")
    func compressed() throws {
        let json = #"{"b":[1,2],"a":"x"}"#
        let gzip = try ContentCodingOracle.coded(Data(json.utf8), with: "gzip")
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: \(gzip.count)\r\n\r\n"
        let http = try #require(Self.conversation([C.chunk(.outbound, Self.rfcRequest), C.chunk(.inbound, Data(head.utf8) + gzip)]))
        let response = try #require(http.exchanges[0].response)
        let shown = DecryptedBodyPresentation(response.body, of: response)
        guard case let .decoded(decoded, inner) = shown else { Issue.record("not decoded: \(shown)"); return }
        #expect(decoded.bytes == Data(json.utf8) && decoded.ending == .whole)
        #expect(inner == .json("{\n  \"b\": [\n    1,\n    2\n  ],\n  \"a\": \"x\"\n}"))
        #expect(response.body.summary(shown) == "\(gzip.count) bytes, gzip, decoded to 19 bytes, JSON, indented here")

        let zstd = Data("HTTP/1.1 200 OK\r\nContent-Encoding: zstd\r\nContent-Length: 4\r\n\r\n".utf8) + Data([0x28, 0xb5, 0x2f, 0xfd])
        let other = try #require(Self.conversation([C.chunk(.outbound, Self.rfcRequest), C.chunk(.inbound, zstd)])?.exchanges[0].response)
        let named = DecryptedBodyPresentation(other.body, of: other)
        #expect(named == .compressed(encoding: "zstd"))
        #expect(other.body.summary(named).hasSuffix(", compressed (zstd): not decoded here (TunnelVision decodes gzip, deflate, br)"))
    }

    @Test("kept by the budget, a large first response leaves the next requests and responses theirs, each cut body said with its length")
    func budgetServesEveryRequest() throws {
        let big = String(repeating: "x", count: 5_000)
        let request = { (path: String) in Data("GET \(path) HTTP/1.1\r\nHost: a\r\n\r\n".utf8) }
        let lengthHead = "HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n"
        let chunkedHead = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        let chunks = C.kept([(.outbound, request("/one")), (.inbound, Data((lengthHead + big).utf8)),
                             (.outbound, request("/two")), (.inbound, Data((chunkedHead + "1388\r\n" + big + "\r\n0\r\n\r\n").utf8)),
                             (.outbound, request("/three")), (.inbound, Data("HTTP/1.1 204 No Content\r\n\r\n".utf8))],
                            limits: .init(bytesPerTurn: 200, bytesPerDirection: 1 << 20), size: 1_000)
        let http = try #require(Self.conversation(chunks))
        #expect(http.exchanges.map { $0.request?.startLine } == ["GET /one HTTP/1.1", "GET /two HTTP/1.1", "GET /three HTTP/1.1"])
        #expect(http.exchanges.map { $0.response?.status } == [200, 200, 204])
        let first = try #require(http.exchanges[0].response?.body)
        #expect(first.bytes == Data(big.utf8.prefix(200 - lengthHead.utf8.count)) && first.cutByBudget && !first.isComplete)
        #expect(first.summary(.bytes(.text(""))) == "\(200 - lengthHead.utf8.count) bytes kept of 5 000 — the rest was not kept")
        let second = try #require(http.exchanges[1].response?.body)
        #expect(second.bytes == Data(big.utf8.prefix(200 - chunkedHead.utf8.count - 6)) && second.cutByBudget && !second.isComplete)
        #expect(http.notKeptBetweenSent == 0 && http.notKeptBetweenReceived == 0 && http.unreadReceivedBytes == 0)
    }

    @Test("a request cut inside its head is counted, not misread, and every prefix of an exchange reads without trapping")
    func prefixesAndCuts() throws {
        let sent = Self.rfcRequest + "GET /next HTTP/1.1\r\nHo"
        let http = try #require(Self.conversation([C.chunk(.outbound, sent, carried: 90_000), C.chunk(.inbound, Self.rfcResponse)]))
        // The budget cut the second head: it and the rest are passed over, not left unread.
        #expect(http.exchanges.count == 1 && http.unreadSentBytes == 0 && http.notKeptBetweenSent == 90_000 - Self.rfcRequest.utf8.count)
        let ended = try #require(Self.conversation([C.chunk(.outbound, sent), C.chunk(.inbound, Self.rfcResponse)]))
        #expect(ended.exchanges.count == 1 && ended.unreadSentBytes == 22)
        let all = Array((Self.rfcRequest + Self.rfcResponse).utf8)
        for cut in 0...all.count {   // request then response, each cut everywhere, and a seeded bit flip
            _ = DecryptedApplication(DecryptedTurns([C.chunk(.outbound, Data(all.prefix(min(cut, Self.rfcRequest.utf8.count)))),
                                                     C.chunk(.inbound, Data(all[min(cut, Self.rfcRequest.utf8.count)...].prefix(cut)))]))
            var flipped = all
            flipped[cut % all.count] ^= UInt8(1 << (cut % 8))
            _ = DecryptedApplication(DecryptedTurns([C.chunk(.outbound, Data(flipped))]))
        }
    }
}
