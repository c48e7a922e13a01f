#if canImport(Glibc)
import Glibc
#endif
import App
import AppLinux
import Foundation
import Testing
import TestSupport

/// The server on a real socket on 127.0.0.1, asked by curl and by a raw client that sends what a
/// browser never would.
@Suite("WebServer", .serialized)
struct WebServerTests {
    static func status(_ response: String) -> Int? {
    response.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) }
    }

    @Test("no secret and a wrong secret are 401; the right one is 303 with the cookie, then 200 with it (curl's cookie jar)")
    func login() async throws {
        let served = try ServedForTest()
        let jar = TemporaryDirectory("web-jar")
        let cookies = jar.url.appendingPathComponent("cookies").path
        let bare = try await ServedForTest.curl(["-o", "/dev/null", "-w", "%{http_code}", served.base + "/api/flows"])
        #expect(bare.out == "401")
        let wrong = try await ServedForTest.curl(["-i", served.base + "/?key=" + String(repeating: "0", count: 64)])
        #expect(wrong.out.hasPrefix("HTTP/1.1 401"))
        #expect(wrong.out.contains("open the address"))
        let login = try await ServedForTest.curl(["-i", "-c", cookies, served.server.url])
        #expect(login.out.hasPrefix("HTTP/1.1 303 See Other"))
        #expect(login.out.contains("Location: /\r\n"))
        #expect(login.out.contains("Set-Cookie: tunnelvision_session_"))
        #expect(login.out.contains("; HttpOnly; SameSite=Strict; Path=/\r\n"))
        let after = try await ServedForTest.curl(["-i", "-b", cookies, served.base + "/api/flows"])
        #expect(after.out.hasPrefix("HTTP/1.1 200 OK"))
        #expect(after.out.hasSuffix("hello /api/flows"))
        #expect(await served.log.eventually { $0.contains(" GET /api/flows 401 ") })
        #expect(!served.log.all.contains { $0.contains("key=") }, "the key never reaches the log")
    }

    @Test("a wrong Host is 421 even with the cookie (DNS rebinding)")
    func wrongHost() async throws {
        let served = try ServedForTest()
        let cookie = try await served.cookie()
        let result = try await ServedForTest.curl(["-i", "-H", "Host: rebind.example:\(served.port)", "-H", "Cookie: \(cookie)",
                                             served.base + "/api/flows"])
        #expect(result.out.hasPrefix("HTTP/1.1 421 Misdirected Request"))
        #expect(result.out.contains("{\"error\": \"this server answers only to the address it listens on"))
    }

    @Test("a POST from another origin, or without X-TunnelVision, is 403; the app's own is answered")
    func crossOrigin() async throws {
        let served = try ServedForTest()
        let cookie = try await served.cookie()
        let common = ["-i", "-X", "POST", "-H", "Cookie: \(cookie)", "--data", "x=1", served.base + "/api/storage/apply"]
        let foreign = try await ServedForTest.curl(["-H", "X-TunnelVision: 1", "-H", "Origin: http://evil.example"] + common)
        #expect(foreign.out.hasPrefix("HTTP/1.1 403 Forbidden"))
        let headerless = try await ServedForTest.curl(["-H", "Origin: \(served.base)"] + common)
        #expect(headerless.out.hasPrefix("HTTP/1.1 403 Forbidden"))
        #expect(headerless.out.contains("X-TunnelVision: 1"))
        let own = try await ServedForTest.curl(["-H", "X-TunnelVision: 1", "-H", "Origin: \(served.base)"] + common)
        #expect(own.out.hasPrefix("HTTP/1.1 200 OK"))
        #expect(own.out.hasSuffix("posted x=1"))
        #expect(await served.log.eventually { _ in served.log.all.filter { $0.contains(" POST /api/storage/apply 403 ") }.count == 2 })
    }

    @Test("two Origin headers are 400, as two Host headers are, even with the cookie and the write header")
    func twoOrigins() async throws {
        let served = try ServedForTest()
        let cookie = try await served.cookie()
        for (first, second) in [("Origin", "Origin"), ("Host", "Host")] {
            let client = try RawHTTPClient(port: served.port)
            let one = first == "Host" ? "Origin: \(served.base)" : "Host: 127.0.0.1:\(served.port)"
            try client.send("POST /api/storage/apply HTTP/1.1\r\n\(one)\r\n\(first): \(first == "Host" ? "127.0.0.1:\(served.port)" : served.base)\r\n"
                            + "\(second): \(second == "Host" ? "evil.example" : "http://evil.example")\r\nCookie: \(cookie)\r\n"
                            + "X-TunnelVision: 1\r\nContent-Length: 0\r\n\r\n")
            let answer = await client.read { $0.contains("\r\n\r\n") }
            #expect(answer.text.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "two \(first): \(answer.text.prefix(60))")
            #expect(await client.closes(within: .seconds(2)))
        }
        #expect(await served.log.eventually { $0.contains(" 400 a request may carry one Origin header, not several") })
        #expect(await served.log.eventually { $0.contains(" 400 an HTTP/1.1 request needs exactly one Host header") })
    }

    @Test("what a client sends reaches the log escaped: a Host with bidi and C1 controls cannot reorder or break a line")
    func escapedLog() async throws {
        let served = try ServedForTest()
        let client = try RawHTTPClient(port: served.port)
        // C0 controls never get this far (the parser refuses them, 400); UTF-8 ones do.
        try client.send("GET /x HTTP/1.1\r\nHost: a\u{202E}b\u{85}c\u{2066}d\r\n\r\n")
        _ = await client.read { $0.contains("\r\n\r\n") }
        #expect(await served.log.eventually { $0.contains(" GET /x 421 ") })
        let line = try #require(served.log.all.first { $0.contains(" GET /x 421 ") })
        #expect(line.contains("'a\\u{202E}b\\u{85}c\\u{2066}d'"), "\(line)")
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" || $0 == "\u{2066}" })
    }

    @Test("oversized headers are 431 and a malformed request line 400, each closed and logged")
    func refusals() async throws {
        let served = try ServedForTest()
        let big = try await ServedForTest.curl(["-i", "-H", "X-Big: " + String(repeating: "a", count: 20_000), served.base + "/"])
        #expect(big.out.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large"))
        let client = try RawHTTPClient(port: served.port)
        try client.send("GET /\r\n\r\n")
        let answer = await client.read { $0.contains("\r\n\r\n") }
        #expect(answer.text.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(await client.closes(within: .seconds(2)))
        #expect(await served.log.eventually { $0.contains(" - - 400 the request line is not") })
        #expect(await served.log.eventually { $0.contains(" 431 ") })
    }

    @Test("every response carries the CSP, nosniff and no-framing headers — answers and refusals alike")
    func securityHeaders() async throws {
        let served = try ServedForTest()
        let cookie = try await served.cookie()
        let responses = [
            try await ServedForTest.curl(["-i", served.base + "/"]).out,                                      // 401
            try await ServedForTest.curl(["-i", try served.freshURL()]).out,                                  // 303
            try await ServedForTest.curl(["-i", "-H", "Cookie: \(cookie)", served.base + "/x"]).out,          // 200
            try await ServedForTest.curl(["-i", "-H", "Host: a:1", served.base + "/"]).out,                   // 421
            try await ServedForTest.curl(["-i", "-X", "PUT", "-H", "Cookie: \(cookie)", served.base + "/"]).out,  // 405
            try await ServedForTest.curl(["-i", "-H", "X: " + String(repeating: "a", count: 20_000), served.base + "/"]).out, // 431
        ]
        #expect(responses.compactMap(Self.status) == [401, 303, 200, 421, 405, 431])
        for response in responses {
            #expect(response.contains("Content-Security-Policy: \(WebSecurityHeaders.contentSecurityPolicy)\r\n"), "\(response.prefix(40))")
            #expect(response.contains("X-Content-Type-Options: nosniff\r\n"))
            #expect(response.contains("X-Frame-Options: DENY\r\n"))
            #expect(response.contains("Referrer-Policy: no-referrer\r\n"))
        }
    }

    @Test("a client that sends a byte a second is told 408 and closed, and meanwhile another is answered at once")
    func slowClient() async throws {
        var limits = WebServerLimits.standard
        limits.requestDeadline = .seconds(3)
        let served = try ServedForTest(limits: limits)
        let cookie = try await served.cookie()
        let slow = try RawHTTPClient(port: served.port)
        let request = "GET /slow HTTP/1.1\r\nHost: 127.0.0.1:\(served.port)\r\nCookie: \(cookie)\r\n\r\n"
        let started = ContinuousClock.now
        var answeredMeanwhile: Duration?
        for (index, character) in request.enumerated() {
            do { try slow.send(String(character)) } catch { break }   // the server closed it
            if index == 1 {
                let other = ContinuousClock.now
                let fast = try await ServedForTest.curl(["-i", "-H", "Cookie: \(cookie)", served.base + "/fast"])
                #expect(fast.out.hasSuffix("hello /fast"))
                answeredMeanwhile = ContinuousClock.now - other
            }
            let peek = await slow.read(timeout: .seconds(1)) { $0.contains("\r\n\r\n") }
            if !peek.text.isEmpty || peek.closed {
                #expect(peek.text.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
                break
            }
        }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .seconds(3) && elapsed < .seconds(6), "refused at its deadline, not before or long after: \(elapsed)")
        #expect(await slow.closes(within: .seconds(2)))
        #expect(answeredMeanwhile.map { $0 < .seconds(1) } == true, "\(String(describing: answeredMeanwhile))")
        #expect(await served.log.eventually { $0.contains(" 408 the request was not complete") })
    }

    @Test("500 idle connections held open, and a fresh client is still answered at once; at most the cap are kept")
    func manyIdle() async throws {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < 2048 {
            limit.rlim_cur = min(limit.rlim_max, 4096)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        let served = try ServedForTest()
        let cookie = try await served.cookie()
        var idle: [RawHTTPClient] = []
        for _ in 0..<500 { idle.append(try RawHTTPClient(port: served.port)) }
        #expect(try await eventually(within: .seconds(10)) { try SocketTable.unacceptedTCP(port: Int(served.port)) == 0 }, "the server never accepted them all")
        let started = ContinuousClock.now
        let fresh = try await ServedForTest.curl(["-i", "-H", "Cookie: \(cookie)", served.base + "/fresh"])
        #expect(fresh.out.hasSuffix("hello /fresh"))
        #expect(ContinuousClock.now - started < .seconds(1))
        let open = await served.server.openConnections()
        #expect(open <= served.server.limits.maximumConnections)
        #expect(await idle.first!.closes(within: .seconds(1)), "the longest idle gave way")
        #expect(!(await idle.last!.closes(within: .milliseconds(100))), "the newest idle ones are still held")
    }

    @Test("with the cap held by requests in progress that never showed the cookie, a new connection takes the oldest one's place")
    func overCapUnauthenticated() async throws {
        var limits = WebServerLimits.standard
        limits.maximumConnections = 8
        let served = try ServedForTest(limits: limits)
        var holders: [RawHTTPClient] = []
        for _ in 0..<8 {
            let holder = try RawHTTPClient(port: served.port)
            try holder.send("GET / HT")
            holders.append(holder)
        }
        #expect(await eventually { await served.server.openConnections() == 8 })
        let cookie = try await served.cookie()   // a ninth connection: the oldest holder gave way to it
        #expect(await holders[0].closes(within: .seconds(2)), "the oldest half-sent request was closed for the newcomer")
        #expect(!(await holders[7].closes(within: .milliseconds(100))), "the newest are still held")
        #expect(!cookie.isEmpty)
    }

    @Test("with the cap held by connections that showed the cookie, a new one is told 503 and closed, and they are kept")
    func overCap() async throws {
        var limits = WebServerLimits.standard
        limits.maximumConnections = 8
        let served = try ServedForTest(limits: limits)
        let cookie = try await served.cookie()
        var streams: [RawHTTPClient] = []
        for _ in 0..<8 {
            let stream = try RawHTTPClient(port: served.port)
            try stream.send("GET /api/live HTTP/1.1\r\nHost: 127.0.0.1:\(served.port)\r\nCookie: \(cookie)\r\n\r\n")
            _ = await stream.read { $0.contains("\r\n\r\n") }
            streams.append(stream)
        }
        let extra = try RawHTTPClient(port: served.port)
        let answer = await extra.read { $0.contains("\r\n\r\n") }
        #expect(answer.text.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        #expect(await extra.closes(within: .seconds(1)))
        #expect(await served.log.eventually { $0.contains(" 503 the server is already serving 8 connections") })
        #expect(await served.server.openConnections() == 8, "no authenticated connection gave way")
    }

    @Test("an event stream receives what is broadcast, framed as SSE, and keep-alive serves two requests on one connection")
    func eventStream() async throws {
        let served = try ServedForTest()
        let cookie = try await served.cookie()
        let client = try RawHTTPClient(port: served.port)
        let host = "Host: 127.0.0.1:\(served.port)\r\nCookie: \(cookie)\r\n"
        try client.send("GET /one HTTP/1.1\r\n\(host)\r\nGET /two HTTP/1.1\r\n\(host)\r\n")
        let both = await client.read { $0.contains("hello /two") }
        #expect(both.text.contains("hello /one"))
        #expect(!both.closed)
        try client.send("GET /api/live HTTP/1.1\r\n\(host)\r\n")
        let head = await client.read { $0.contains("text/event-stream") && $0.contains("\r\n\r\n") }
        #expect(head.text.contains("Cache-Control: no-store\r\n"))
        // The stream is registered once its head is out; broadcast until the event arrives.
        var received = ""
        for attempt in 0..<20 where !received.contains("\n\n") {
            served.server.broadcast(event: "dashboard", data: "{\"n\":\(attempt)}")
            received += await client.read(timeout: .milliseconds(200)) { $0.contains("\n\n") }.text
        }
        #expect(received.hasPrefix("event: dashboard\ndata: {\"n\":"))
        #expect(received.hasSuffix("}\n\n"))
    }

    @Test("answers still come while every thread of the process's cooperative pool is blocked")
    func poolBlocked() async throws {
        let served = try ServedForTest()
        let cookie = try await served.cookie()
        let url = served.base + "/while-blocked"
        let result = try await onOwnThread { () -> (status: Int32, out: String, err: String) in
            let width = ProcessInfo.processInfo.activeProcessorCount
            let gate = DispatchSemaphore(value: 0), started = DispatchSemaphore(value: 0)
            for _ in 0..<(width + 2) {
                Task.detached {
                    started.signal()
                    gate.wait()
                }
            }
            for _ in 0..<width { started.wait() }   // the pool's threads are all held now
            defer { for _ in 0..<(width + 2) { gate.signal() } }
            return try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "--max-time", "5", "-H", "Cookie: \(cookie)", url])
        }
        #expect(result.out == "hello /while-blocked")
    }
}
