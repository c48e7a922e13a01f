import Testing
@testable import App

@Suite("HTTPRequestParser")
struct HTTPRequestParserTests {
    static func parse(_ text: String, limits: WebServerLimits = .standard) -> HTTPRequestParser.Outcome {
        var parser = HTTPRequestParser(limits: limits)
        return parser.feed(Array(text.utf8))
    }

    static func refusal(_ text: String, limits: WebServerLimits = .standard) -> HTTPRefusal? {
        if case .refused(let refusal) = parse(text, limits: limits) { refusal } else { nil }
    }

    static let small = WebServerLimits(maximumHeaderBytes: 200, maximumTargetBytes: 40, maximumBodyBytes: 10,
                                       maximumConnections: 4, idleTimeout: .seconds(1), requestDeadline: .seconds(1),
                                       heartbeatInterval: .seconds(1), maximumStreamBacklog: 100, acceptBurst: 4,
                                       keyLifetime: .seconds(1), listenBacklog: 4, acceptRetryDelay: .milliseconds(10))

    @Test("a GET is read with its path and query decoded, + a space in the query only")
    func get() throws {
        let text = "GET /a%20b+c?search=x+y%2Bz&flag&k=%C3%A9 HTTP/1.1\r\nHost: 127.0.0.1:8\r\nX-A:  v \r\n\r\n"
        let outcome = Self.parse(text)
        guard case .request(let request, let consumed) = outcome else { Issue.record("\(outcome)"); return }
        #expect(consumed == text.utf8.count)
        #expect(request.method == "GET")
        #expect(request.path == "/a b+c")
        #expect(request.query == [HTTPQueryItem("search", "x y+z"), HTTPQueryItem("flag", ""), HTTPQueryItem("k", "é")])
        #expect(request.headers["host"] == "127.0.0.1:8")
        #expect(request.headers["X-A"] == "v")
        #expect(request.version == "HTTP/1.1")
        #expect(request.body.isEmpty)
    }

    @Test("a POST's body is read by its Content-Length, and pipelined requests one after another")
    func bodyAndPipelining() {
        var parser = HTTPRequestParser()
        let bytes = Array("POST /api/x HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhelloGET /b HTTP/1.1\r\nHost: h\r\n\r\nGET /c".utf8)
        guard case .request(let first, let consumed) = parser.feed(bytes) else { Issue.record("no first"); return }
        #expect(first.body == Array("hello".utf8))
        #expect(consumed == "POST /api/x HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello".utf8.count)
        guard case .request(let second, _) = parser.next() else { Issue.record("no second"); return }
        #expect(second.path == "/b")
        #expect(parser.next() == .needMore)
        #expect(parser.hasPartialRequest)
    }

    @Test("every proper prefix of a request needs more, and a byte at a time gives the same request")
    func prefixes() {
        let text = Array("\r\nPOST /p?q=1 HTTP/1.0\r\nContent-Length: 3\r\n\r\nabc".utf8)
        let whole = Self.parse(String(decoding: text, as: UTF8.self))
        guard case .request = whole else { Issue.record("\(whole)"); return }
        for cut in 0..<text.count {
            var parser = HTTPRequestParser()
            #expect(parser.feed(text[..<cut]) == .needMore, "prefix of \(cut) bytes")
        }
        var parser = HTTPRequestParser()
        var last = HTTPRequestParser.Outcome.needMore
        for byte in text { last = parser.feed([byte]) }
        #expect(last == whole)
    }

    @Test("each malformed request is refused with its own reason and status", arguments: [
        ("GET / HTTP/1.1 extra\r\nHost: h\r\n\r\n", HTTPRefusal.malformedRequestLine),
        ("GET  / HTTP/1.1\r\nHost: h\r\n\r\n", .malformedRequestLine),
        ("GET http://x/ HTTP/1.1\r\nHost: h\r\n\r\n", .malformedRequestLine),
        ("G@T / HTTP/1.1\r\nHost: h\r\n\r\n", .malformedRequestLine),
        ("GET / HTTP/2.0\r\nHost: h\r\n\r\n", .unsupportedVersion("HTTP/2.0")),
        ("GET / HTTP/0.9\r\n\r\n", .unsupportedVersion("HTTP/0.9")),
        ("GET / HTTPS/1.1\r\nHost: h\r\n\r\n", .malformedRequestLine),
        ("GET / HTTP/1.1\r\n\r\n", .missingHost),
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", .missingHost),
        ("POST / HTTP/1.1\r\nHost: h\r\nOrigin: http://h\r\nOrigin: http://evil.example\r\n\r\n", .duplicateOrigin),
        ("GET / HTTP/1.1\r\nOrigin: http://h\r\nHost: h\r\norigin: http://h\r\n\r\n", .duplicateOrigin),
        ("GET / HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n", .malformedHeader("a line starts with whitespace (a folded header)")),
        ("GET / HTTP/1.1\r\nHost : h\r\n\r\n", .malformedHeader("whitespace before a colon")),
        ("GET / HTTP/1.1\r\nHost: h\r\nNoColon\r\n\r\n", .malformedHeader("a line has no colon")),
        ("GET / HTTP/1.1\r\nHost: h\r\n: v\r\n\r\n", .malformedHeader("a header has no name")),
        ("GET / HTTP/1.1\r\nHost: h\r\nX-A: a\u{1}b\r\n\r\n", .malformedHeader("a header value holds a control character")),
        ("GET / HTTP/1.1\r\nHost: h\rX: y\r\n\r\n", .badLineEnding),
        ("GET / HTTP/1.1\nHost: h\r\n\r\n", .badLineEnding),
        ("GET / HTTP/1.1\r\nHost: h\n\n", .badLineEnding),
        ("GET / HTTP/1.1\r\nHost: h\u{0}\r\n\r\n", .badLineEnding),
        ("GET /%4 HTTP/1.1\r\nHost: h\r\n\r\n", .badPercentEncoding),
        ("GET /a%00 HTTP/1.1\r\nHost: h\r\n\r\n", .badPercentEncoding),
        ("GET /?q=%zz HTTP/1.1\r\nHost: h\r\n\r\n", .badPercentEncoding),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n", .unsupportedTransferEncoding("chunked")),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: +5\r\n\r\n", .badContentLength),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", .badContentLength),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5, 6\r\n\r\n", .badContentLength),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 65537\r\n\r\n", .bodyTooLarge(limit: 65536)),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999999\r\n\r\n", .bodyTooLarge(limit: 65536)),
    ])
    func refusals(text: String, expected: HTTPRefusal) {
        #expect(Self.refusal(text) == expected)
    }

    @Test("refusals carry the statuses RFC 9110 and 6585 give them")
    func statuses() {
        #expect(HTTPRefusal.headerSectionTooLarge(limit: 1).status.code == 431)
        #expect(HTTPRefusal.targetTooLong(limit: 1).status.code == 414)
        #expect(HTTPRefusal.bodyTooLarge(limit: 1).status.code == 413)
        #expect(HTTPRefusal.unsupportedTransferEncoding("x").status.code == 501)
        #expect(HTTPRefusal.unsupportedVersion("HTTP/2.0").status.code == 505)
        #expect(HTTPRefusal.missingHost.status.code == 400)
    }

    @Test("repeated identical Content-Lengths are one length; HTTP/1.0 needs no Host")
    func lenient() {
        guard case .request(let request, _) = Self.parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 2, 2\r\nContent-Length: 02\r\n\r\nok")
        else { Issue.record("refused"); return }
        #expect(request.body == Array("ok".utf8))
        guard case .request(let old, _) = Self.parse("GET / HTTP/1.0\r\n\r\n") else { Issue.record("1.0 refused"); return }
        #expect(old.version == "HTTP/1.0")
    }

    @Test("limits: a long target is 414, a large head 431, whole or a byte at a time alike")
    func limits() {
        let longTarget = "GET /" + String(repeating: "a", count: 40) + " HTTP/1.1\r\nHost: h\r\n\r\n"
        #expect(Self.refusal(longTarget, limits: Self.small) == .targetTooLong(limit: 40))
        let endless = "GET /" + String(repeating: "a", count: 200)
        #expect(Self.refusal(endless, limits: Self.small) == .targetTooLong(limit: 40))
        let bigHead = "GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "b", count: 200) + "\r\n\r\n"
        #expect(Self.refusal(bigHead, limits: Self.small) == .headerSectionTooLarge(limit: 200))
        let unfinished = "GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "b", count: 200)
        #expect(Self.refusal(unfinished, limits: Self.small) == .headerSectionTooLarge(limit: 200))
        #expect(Self.refusal("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\n", limits: Self.small) == .bodyTooLarge(limit: 10))
        for text in [longTarget, endless, bigHead, unfinished] {
            var parser = HTTPRequestParser(limits: Self.small)
            var last = HTTPRequestParser.Outcome.needMore
            for byte in text.utf8 where last == .needMore { last = parser.feed([byte]) }
            #expect(last == Self.parse(text, limits: Self.small))
        }
    }

    @Test("a refusal is final: bytes after it do not unsettle it")
    func settled() {
        var parser = HTTPRequestParser()
        let refused = parser.feed(Array("BAD\r\n\r\n".utf8))
        #expect(refused == .refused(.malformedRequestLine))
        #expect(parser.feed(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8)) == refused)
    }

    @Test("a seeded bit-flip run over a request never traps and agrees one piece against a byte at a time")
    func bitFlips() {
        let base = Array("POST /api/settings?x=1 HTTP/1.1\r\nHost: 127.0.0.1:9\r\nContent-Length: 4\r\nCookie: a=b\r\n\r\nbody".utf8)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2000 {
            var bytes = base
            for _ in 0..<3 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let index = Int(state >> 33) % bytes.count
                bytes[index] ^= UInt8(truncatingIfNeeded: 1 << ((state >> 20) % 8))
            }
            var whole = HTTPRequestParser()
            let one = whole.feed(bytes)
            var chunked = HTTPRequestParser()
            var last = HTTPRequestParser.Outcome.needMore
            for byte in bytes where last == .needMore { last = chunked.feed([byte]) }
            #expect(one == last)
        }
    }
}

@Suite("HTTPRequestParser limits crossed together")
struct HTTPRequestParserLimitOrderTests {
    @Test("a head limit below the request line's is crossed first, whole or a byte at a time alike (found by the fuzzer)")
    func headLimitBelowLineLimit() {
        var limits = WebServerLimits.standard
        limits.maximumHeaderBytes = 48
        limits.maximumTargetBytes = 17
        let text = Array(("GET /" + String(repeating: "a", count: 100) + " HTTP/1.1\r\nHost: h\r\n\r\n").utf8)
        var whole = HTTPRequestParser(limits: limits)
        let once = whole.feed(text)
        var chunked = HTTPRequestParser(limits: limits)
        var last = HTTPRequestParser.Outcome.needMore
        for byte in text where last == .needMore { last = chunked.feed([byte]) }
        #expect(once == last)
        #expect(once == .refused(.headerSectionTooLarge(limit: 48)))
    }
}
