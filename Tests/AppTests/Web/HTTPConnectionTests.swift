import Testing
@testable import App

@Suite("HTTPConnection")
struct HTTPConnectionTests {
    static let get = Array("GET /a HTTP/1.1\r\nHost: h\r\n\r\n".utf8)

    static func text(_ action: HTTPConnection.Action) -> String {
        if case .send(let bytes) = action { String(decoding: bytes, as: UTF8.self) } else { "\(action)" }
    }

    static func ok(_ body: String = "hi") -> HTTPResponse {
        HTTPResponse(status: .ok, headers: HTTPHeaders([("Content-Type", "text/plain")]), body: .bytes(Array(body.utf8)))
    }

    /// Writes everything the connection sends, as a socket that takes it all would.
    static func drain(_ connection: inout HTTPConnection, _ first: HTTPConnection.Action) -> (sent: String, last: HTTPConnection.Action) {
        var sent = ""
        var action = first
        while case .send(let bytes) = action {
            sent += String(decoding: bytes, as: UTF8.self)
            action = connection.wrote(bytes.count)
        }
        return (sent, action)
    }

    @Test("a 1.1 request is handed out, its answer written with the security headers, and the connection kept")
    func keepAlive() {
        var connection = HTTPConnection()
        #expect(connection.deadline?.kind == .idle)
        guard case .respond(let request) = connection.received(Self.get) else { Issue.record("no request"); return }
        #expect(request.path == "/a")
        #expect(!connection.wantsRead)
        #expect(connection.deadline == nil)
        let (sent, last) = Self.drain(&connection, connection.responded(Self.ok()))
        #expect(sent.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(sent.contains("Content-Length: 2\r\n"))
        #expect(sent.contains("Content-Security-Policy: default-src 'self'; script-src 'self'"))
        #expect(sent.contains("X-Content-Type-Options: nosniff\r\n"))
        #expect(sent.contains("Cache-Control: no-cache\r\n"))
        #expect(!sent.contains("Connection:"))
        #expect(sent.hasSuffix("\r\n\r\nhi"))
        #expect(last == .wait)
        #expect(connection.wantsRead)
        #expect(connection.isIdle)
        #expect(connection.deadline?.kind == .idle)
    }

    @Test("Connection: close, and HTTP/1.0 without keep-alive, close after the answer")
    func closing() {
        for text in ["GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n", "GET / HTTP/1.0\r\n\r\n"] {
            var connection = HTTPConnection()
            guard case .respond = connection.received(Array(text.utf8)) else { Issue.record("no request"); continue }
            let (sent, last) = Self.drain(&connection, connection.responded(Self.ok()))
            #expect(sent.contains("Connection: close\r\n"))
            #expect(last == .close(.finished))
        }
        var kept = HTTPConnection()
        guard case .respond = kept.received(Array("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n".utf8)) else {
            Issue.record("the whole request did not ask for a response"); return
        }
        let (sent, last) = Self.drain(&kept, kept.responded(Self.ok()))
        #expect(sent.contains("Connection: keep-alive\r\n"))
        #expect(last == .wait)
    }

    @Test("pipelined requests wait in the buffer and are answered one at a time, in order")
    func pipelining() {
        var connection = HTTPConnection()
        let two = Array("GET /1 HTTP/1.1\r\nHost: h\r\n\r\nGET /2 HTTP/1.1\r\nHost: h\r\n\r\n".utf8)
        guard case .respond(let first) = connection.received(two) else { Issue.record("no first"); return }
        #expect(first.path == "/1")
        #expect(connection.readLimit == 0)
        let (_, next) = Self.drain(&connection, connection.responded(Self.ok()))
        guard case .respond(let second) = next else { Issue.record("second not handed out: \(next)"); return }
        #expect(second.path == "/2")
    }

    @Test("a HEAD answer has the length and no body; the API's answers are never stored")
    func headAndAPI() {
        var connection = HTTPConnection()
        guard case .respond = connection.received(Array("HEAD /api/flows HTTP/1.1\r\nHost: h\r\n\r\n".utf8)) else {
            Issue.record("the whole request did not ask for a response"); return
        }
        let (sent, _) = Self.drain(&connection, connection.responded(Self.ok("12345")))
        #expect(sent.contains("Content-Length: 5\r\n"))
        #expect(sent.contains("Cache-Control: no-store\r\n"))
        #expect(sent.hasSuffix("\r\n\r\n"))
    }

    @Test("a malformed request is answered with its status and closed")
    func refusal() {
        var connection = HTTPConnection()
        let (sent, last) = Self.drain(&connection, connection.received(Array("NOT HTTP\r\n\r\n".utf8)))
        #expect(sent.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(sent.contains("Connection: close\r\n"))
        #expect(sent.contains("X-Frame-Options: DENY\r\n"))
        #expect(last == .close(.refused(.malformedRequestLine)))
    }

    @Test("a request begun and not finished by its deadline is told 408; an idle connection is closed quietly")
    func deadlines() {
        var slow = HTTPConnection()
        #expect(slow.received(Array("GET / HT".utf8)) == .wait)
        guard let deadline = slow.deadline else { Issue.record("no deadline"); return }
        #expect(deadline.kind == .request)
        #expect(slow.received(Array("TP".utf8)) == .wait)
        #expect(slow.deadline == deadline, "more bytes do not extend the request's deadline")
        let (sent, last) = Self.drain(&slow, slow.deadlinePassed(generation: deadline.generation))
        #expect(sent.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        #expect(last == .close(.requestTimedOut))

        var idle = HTTPConnection()
        let generation = idle.deadline!.generation
        #expect(idle.deadlinePassed(generation: generation + 7) == .wait, "a stale timer is ignored")
        #expect(idle.deadlinePassed(generation: generation) == .close(.idle))
    }

    @Test("a head sent in part and then dribbled a byte at a time keeps its first byte's deadline, and is told 408 at it")
    func dribbledHead() {
        var slow = HTTPConnection()
        #expect(slow.received(Array("GET / HTTP/1.1\r\nHost: h\r\n".utf8)) == .wait)
        let first = slow.deadline
        #expect(first?.kind == .request && first?.delay == WebServerLimits.standard.requestDeadline)
        for byte in "X-Slow: \(String(repeating: "a", count: 200))\r\n".utf8 {
            #expect(slow.received([byte]) == .wait)
            #expect(slow.deadline == first, "a byte does not restart the clock")
        }
        #expect(!slow.isIdle, "a partial head is not idle")
        let (sent, last) = Self.drain(&slow, slow.deadlinePassed(generation: first!.generation))
        #expect(sent.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        #expect(last == .close(.requestTimedOut))
    }

    @Test("a HEAD of an event stream gets the stream's head and no stream: then the close its head promised")
    func headOfStream() {
        var connection = HTTPConnection()
        guard case .respond = connection.received(Array("HEAD /api/live HTTP/1.1\r\nHost: h\r\n\r\n".utf8)) else {
            Issue.record("the whole request did not ask for a response"); return
        }
        let (head, last) = Self.drain(&connection, connection.responded(HTTPResponse(status: .ok, body: .eventStream)))
        #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(head.contains("Content-Type: text/event-stream\r\n") && head.contains("Connection: close\r\n"))
        #expect(head.hasSuffix("\r\n\r\n"))
        #expect(!connection.isStreaming)
        #expect(last == .close(.finished))
        #expect(connection.push(ServerSentEvent.heartbeat) == .wait, "nothing is pushed to it")
    }

    @Test("a write that blocks waits for writability, and a response never taken closes the connection")
    func blockedWrites() {
        var connection = HTTPConnection()
        guard case .respond = connection.received(Self.get) else {
            Issue.record("the whole request did not ask for a response"); return
        }
        guard case .send(let bytes) = connection.responded(Self.ok()) else { Issue.record("nothing sent"); return }
        #expect(connection.wrote(3) == .send(bytes.dropFirst(3)))
        #expect(connection.wrote(0) == .wait)
        #expect(connection.wantsWrite)
        #expect(connection.writable() == .send(bytes.dropFirst(3)))
        #expect(connection.wrote(0) == .wait)
        #expect(connection.deadline?.kind == .write)
        #expect(connection.deadlinePassed(generation: connection.deadline!.generation) == .close(.slowReader))
    }

    @Test("an event stream sends its head, then each pushed event framed, a heartbeat when quiet, and never reads a request")
    func eventStream() {
        var connection = HTTPConnection()
        guard case .respond = connection.received(Array("GET /api/live HTTP/1.1\r\nHost: h\r\n\r\n".utf8)) else {
            Issue.record("the whole request did not ask for a response"); return
        }
        let (head, afterHead) = Self.drain(&connection, connection.responded(HTTPResponse(status: .ok, body: .eventStream)))
        #expect(head.contains("Content-Type: text/event-stream\r\n"))
        #expect(head.contains("Connection: close\r\n"))
        #expect(!head.contains("Content-Length"))
        #expect(afterHead == .wait)
        #expect(connection.isStreaming)
        let (event, _) = Self.drain(&connection, connection.push(ServerSentEvent.frame(event: "dashboard", data: "{\"a\":1}")))
        #expect(event == "event: dashboard\ndata: {\"a\":1}\n\n")
        #expect(connection.received(Self.get) == .wait)
        #expect(connection.deadline?.kind == .heartbeat)
        let (beat, _) = Self.drain(&connection, connection.deadlinePassed(generation: connection.deadline!.generation))
        #expect(beat == ": keep-alive\n\n")
        #expect(connection.endOfStream() == .close(.finished))
    }

    @Test("an event stream whose client reads nothing is closed once its backlog is over the limit")
    func streamBacklog() {
        var limits = WebServerLimits.standard
        limits.maximumStreamBacklog = 300
        var connection = HTTPConnection(limits: limits)
        guard case .respond = connection.received(Array("GET /api/live HTTP/1.1\r\nHost: h\r\n\r\n".utf8)) else {
            Issue.record("the whole request did not ask for a response"); return
        }
        guard case .send = connection.responded(HTTPResponse(status: .ok, body: .eventStream)) else {
            Issue.record("the response was not sent"); return
        }
        #expect(connection.wrote(0) == .wait, "the client takes nothing, not even the head")
        var last = HTTPConnection.Action.wait
        for _ in 0..<20 where last != .close(.slowReader) {
            last = connection.push(ServerSentEvent.frame(event: "e", data: String(repeating: "x", count: 40)))
            if case .send = last { last = connection.wrote(0) }
        }
        #expect(last == .close(.slowReader))
    }

    @Test("SSE framing: a line break in the data is a second data line, one in the name is dropped")
    func framing() {
        #expect(String(decoding: ServerSentEvent.frame(event: "a\nb", data: "1\n2"), as: UTF8.self) == "event: ab\ndata: 1\ndata: 2\n\n")
    }

    @Test("at the cap, the new connection is told 503 and closed")
    func overCap() {
        var connection = HTTPConnection()
        let (sent, last) = Self.drain(&connection, connection.refuseOverCap())
        #expect(sent.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        #expect(last == .close(.overCap))
    }
}
