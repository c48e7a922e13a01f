import Foundation
import Testing
import TestSupport
@testable import Shared

/// The request heads the search indexes, read from what a client sends as it is decrypted.
@Suite struct HTTPRequestHeadsTests {
    static func feed(_ pieces: [(Direction, String)]) -> [String] {
        var heads = HTTPRequestHeads()
        return pieces.flatMap { heads.feed(Data($0.1.utf8), direction: $0.0) }
    }

    @Test("HTTP/1.1: the head at the start of each run of sent bytes, across chunks, lowercased, credentials' values left out")
    func http1() {
        let texts = Self.feed([
            (.outbound, "GET /api/Items?x=1 HTTP/1.1\r\nHost: a.test\r\nAuth"),
            (.outbound, "orization: Bearer s3cret\r\nCookie: id=1\r\n\r\n"),
            (.inbound, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"),
            (.outbound, "POST /upload HTTP/1.1\r\nUser-Agent: curl/8.0\r\nContent-Length: 4\r\n\r\nbody"),
            (.outbound, "more body, not a head"),
        ])
        #expect(texts == ["get /api/items?x=1 http/1.1\nhost: a.test\nauthorization:\ncookie:",
                          "post /upload http/1.1\nuser-agent: curl/8.0\ncontent-length: 4"])
        #expect(!texts.joined().contains("s3cret"))
    }

    @Test("HTTP/1.1 pipelined: every head sent in one run, past each body its Content-Length gives, however the bytes are cut")
    func http1Pipelined() {
        let run = "GET /a HTTP/1.1\r\nHost: p.test\r\n\r\n"
            + "POST /b HTTP/1.1\r\nContent-Length: 24\r\n\r\nGET /not-a-head HTTP/1.1"
            + "HEAD /c HTTP/1.1\r\nHost: p.test\r\n\r\n"
        let expected = ["get /a http/1.1\nhost: p.test", "post /b http/1.1\ncontent-length: 24", "head /c http/1.1\nhost: p.test"]
        #expect(Self.feed([(.outbound, run)]) == expected)
        // Cut anywhere, even inside a head's end or the body: the same three.
        let bytes = Array(run.utf8)
        for cut in [1, 17, 34, 35, 60, 80, bytes.count - 3] {
            var heads = HTTPRequestHeads()
            let texts = heads.feed(Data(bytes[..<cut]), direction: .outbound) + heads.feed(Data(bytes[cut...]), direction: .outbound)
            #expect(texts == expected, "cut at \(cut)")
        }
        // A chunked body: the next head is read where the next run begins, never inside the body.
        #expect(Self.feed([
            (.outbound, "POST /d HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nGET /x HTTP/1.1\r\n\r\n0\r\n\r\n"),
            (.inbound, "HTTP/1.1 200 OK\r\n\r\n"),
            (.outbound, "GET /e HTTP/1.1\r\n\r\n"),
        ]) == ["post /d http/1.1\ntransfer-encoding: chunked", "get /e http/1.1"])
        // Expect: 100-continue: the body follows the server's interim answer and is not a head.
        #expect(Self.feed([
            (.outbound, "PUT /f HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 23\r\n\r\n"),
            (.inbound, "HTTP/1.1 100 Continue\r\n\r\n"),
            (.outbound, "GET /g HTTP/1.1\r\n\r\n\r\n\r\n"),
            (.inbound, "HTTP/1.1 201 Created\r\n\r\n"),
            (.outbound, "GET /h HTTP/1.1\r\n\r\n"),
        ]) == ["put /f http/1.1\nexpect: 100-continue\ncontent-length: 23", "get /h http/1.1"])
    }

    @Test("what does not begin as a request, or a head that never ends, gives nothing")
    func notRequests() {
        #expect(Self.feed([(.outbound, "\u{16}\u{03}\u{01} binary"), (.inbound, "x"), (.outbound, "GET / HTTP/1.1\r\n\r\n")]).isEmpty)
        #expect(Self.feed([(.outbound, "GET / HTTP/1.1\r\nHost: " + String(repeating: "a", count: 20_000))]).isEmpty)
        #expect(Self.feed([(.inbound, "HTTP/1.1 200 OK\r\n\r\n")]).isEmpty)
    }

    @Test("HTTP/2: each header block the client sent, decoded as h2 encoded it, however the bytes are cut")
    func http2AgainstPythonH2() throws {
        let out = try #require(try PythonOracle.json(HTTP2Oracle.conversationScript) as? [String: Any])
        let client = HexText.data(out["client"] as? String ?? "")
        let streams = out["streams"] as? [[String: Any]] ?? []
        // What the client sent: each request's header list and its trailers, in stream order.
        let expected = streams.filter { $0["promisedBy"] as? Int == nil }.compactMap { stream -> [String]? in
            guard let request = stream["request"] as? [[String]] else { return nil }
            let trailers = stream["requestTrailers"] as? [[String]] ?? []
            return [request, trailers].filter { !$0.isEmpty }.map { fields in
                HTTPRequestHeads.text(fields.map { HTTPRequestHeads.line(($0[0], $0[1])) })
            }
        }.flatMap { $0 }
        #expect(expected.count >= 4)
        for size in [client.count, 1_000, 7, 1] {
            var heads = HTTPRequestHeads()
            var texts: [String] = []
            for start in stride(from: 0, to: client.count, by: size) {
                texts += heads.feed(client.subdata(in: start..<min(client.count, start + size)), direction: .outbound)
            }
            #expect(Set(texts) == Set(expected), "cut every \(size) bytes")
            #expect(texts.contains { $0.hasPrefix(":method: post\n") && $0.contains(":path: /api/items?x=1") })
        }
    }

    @Test("at most 1 024 requests a connection and 2 048 bytes a request are kept")
    func bounded() {
        var heads = HTTPRequestHeads()
        var texts: [String] = []
        for index in 0..<1_100 {
            texts += heads.feed(Data("GET /\(index) HTTP/1.1\r\nX-Long: \(String(repeating: "v", count: 3_000))\r\n\r\n".utf8), direction: .outbound)
            _ = heads.feed(Data("HTTP/1.1 204 No Content\r\n\r\n".utf8), direction: .inbound)
        }
        #expect(texts.count == HTTPRequestHeads.maxRequests)
        #expect(texts.allSatisfy { $0.utf8.count <= HTTPRequestHeads.maxTextBytes })
    }
}
