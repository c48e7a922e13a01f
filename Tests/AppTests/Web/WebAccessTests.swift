import Shared
import Testing
@testable import App

@Suite("WebAccess")
struct WebAccessTests {
    static let endpoint = IPEndpoint(address: IPAddress(parsing: "127.0.0.1")!, port: 8123)
    static let start = ContinuousClock.now
    static let secret = [UInt8](repeating: 0xAB, count: 32)
    /// A server's access with one key minted at `start`, `secret`'s.
    static var access: WebAccess {
        var access = WebAccess(listening: endpoint, sessionToken: [UInt8](repeating: 0x01, count: 32), keyLifetime: .seconds(300))
        _ = access.mint(secret: secret, now: start)
        return access
    }
    static let session = "tunnelvision_session_8123=" + String(repeating: "01", count: 32)
    static let key = String(repeating: "ab", count: 32)

    /// The decision of a fresh `access` for `request`, at `start`.
    static func decide(_ request: HTTPRequest) -> WebAccess.Decision {
        var access = Self.access
        return access.decide(request, now: start)
    }

    static func request(_ method: String = "GET", _ target: String = "/api/flows", host: String? = "127.0.0.1:8123",
                        _ extra: [(String, String)] = []) -> HTTPRequest {
        var headers = HTTPHeaders(extra)
        if let host { headers.add("Host", host) }
        var parser = HTTPRequestParser()
        var text = "\(method) \(target) HTTP/1.1\r\n"
        for (name, value) in headers.fields { text += "\(name): \(value)\r\n" }
        guard case .request(let request, _) = parser.feed(Array((text + "\r\n").utf8)) else { fatalError("unparsable \(text)") }
        return request
    }

    @Test("the printed address carries 64 hex digits of key, and the key buys a cookie and a redirect to /")
    func login() {
        var access = WebAccess(listening: Self.endpoint, sessionToken: [UInt8](repeating: 0x01, count: 32), keyLifetime: .seconds(300))
        #expect(access.mint(secret: Self.secret, now: Self.start).key.url == "http://127.0.0.1:8123/?key=" + Self.key)
        let decision = access.decide(Self.request("GET", "/?key=" + Self.key), now: Self.start)
        guard case .login(let response, .some) = decision else { Issue.record("\(decision)"); return }
        #expect(response.status.code == 303)
        #expect(response.headers["Location"] == "/")
        #expect(response.headers["Set-Cookie"] == Self.session + "; HttpOnly; SameSite=Strict; Path=/")
        #expect(!(response.headers["Set-Cookie"] ?? "").contains("abab"), "the cookie is not the key")
    }

    @Test("with the cookie a request passes; without it, with another, or with a wrong key it is 401")
    func session() {
        #expect(Self.decide(Self.request(.init("GET"), "/api/flows", [("Cookie", "x=1; " + Self.session)])) == .pass)
        #expect(Self.decide(Self.request()) == .refuse(.noSession))
        #expect(Self.decide(Self.request("GET", "/", [("Cookie", "tunnelvision_session_8123=0101")])) == .refuse(.noSession))
        #expect(Self.decide(Self.request("GET", "/?key=abab")) == .refuse(.wrongSecret))
        #expect(WebAccessRefusal.noSession.status.code == 401)
        #expect(WebAccessRefusal.noSession.sentence.contains("open the address 'tunnelvision ui' printed"))
    }

    @Test("a Host other than the address listened on is 421, localhost included only for loopback")
    func host() {
        #expect(Self.decide(Self.request(host: "evil.example:8123")) == .refuse(.wrongHost("evil.example:8123")))
        #expect(Self.decide(Self.request(host: "127.0.0.1:8124")) == .refuse(.wrongHost("127.0.0.1:8124")))
        #expect(Self.decide(Self.request(host: "LOCALHOST:8123", [("Cookie", Self.session)])) == .pass)
        #expect(WebAccessRefusal.wrongHost(nil).status.code == 421)
        let v6 = WebAccess(listening: IPEndpoint(address: IPAddress(parsing: "::1")!, port: 9), sessionToken: [2], keyLifetime: .seconds(1))
        #expect(v6.acceptedHosts == ["[::1]:9", "localhost:9"])
        let lan = WebAccess(listening: IPEndpoint(address: IPAddress(parsing: "198.18.0.1")!, port: 9), sessionToken: [2],
                            keyLifetime: .seconds(1))
        #expect(lan.acceptedHosts == ["198.18.0.1:9"])
    }

    @Test("a POST needs X-TunnelVision: 1 and this server's Origin, else 403; other methods are 405")
    func writes() {
        let cookie = ("Cookie", Self.session)
        #expect(Self.decide(Self.request("POST", "/api/storage/apply", [cookie, ("X-TunnelVision", "1"),
                                                                                ("Origin", "http://127.0.0.1:8123")])) == .pass)
        #expect(Self.decide(Self.request("POST", "/api/storage/apply", [cookie, ("Origin", "http://127.0.0.1:8123")]))
                == .refuse(.missingWriteHeader))
        #expect(Self.decide(Self.request("POST", "/api/storage/apply", [cookie, ("X-TunnelVision", "1"),
                                                                                ("Origin", "http://evil.example")]))
                == .refuse(.crossOrigin("http://evil.example")))
        #expect(Self.decide(Self.request("POST", "/api/storage/apply", [cookie, ("X-TunnelVision", "1")]))
                == .refuse(.crossOrigin(nil)))
        #expect(Self.decide(Self.request("DELETE", "/api/captures/1", [cookie])) == .refuse(.methodNotAllowed("DELETE")))
        #expect(WebAccessRefusal.crossOrigin(nil).status.code == 403)
        #expect(WebAccessRefusal.methodNotAllowed("PUT").response(path: "/").headers["Allow"] == "GET, HEAD, POST")
    }

    @Test("a refusal under /api/ is the API's JSON error; elsewhere a page")
    func refusalForms() {
        let json = WebAccessRefusal.noSession.response(path: "/api/flows")
        #expect(json.body == .bytes(Array(("{\"error\": \"" + WebAccessRefusal.noSession.sentence + "\"}\n").utf8)))
        let page = WebAccessRefusal.noSession.response(path: "/")
        #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
    }

    @Test("a random source gives a different key each time; the comparison is exact")
    func randomness() {
        var random = SystemRandomNumberGenerator()
        var access = WebAccess(listening: Self.endpoint, keyLifetime: .seconds(300), using: &random)
        let one = access.mint(now: Self.start, using: &random).key.url, two = access.mint(now: Self.start, using: &random).key.url
        #expect(one.count == "http://127.0.0.1:8123/?key=".count + 64)
        #expect(one != two)
        #expect(WebAccess.constantTimeEquals("abc", "abc"))
        #expect(!WebAccess.constantTimeEquals("abc", "abd"))
        #expect(!WebAccess.constantTimeEquals("abc", "abcd"))
        #expect(!WebAccess.constantTimeEquals("", "a"))
    }

    @Test("the log line names the path without its query, so the key never reaches the log")
    func logLine() {
        let line = WebLogLine.refusal(at: .init(timeIntervalSince1970: 0), peer: "127.0.0.1:5", method: "GET",
                                      target: "/?key=secret", status: .unauthorized, sentence: "no")
        #expect(line == "1970-01-01T00:00:00Z tunnelvision ui: 127.0.0.1:5 GET / 401 no")
    }

    @Test("--listen: loopback by default, an unspecified address refused, another one warned about")
    func listen() throws {
        #expect(WebListenAddress.standard.endpoint.description == "127.0.0.1:0")
        #expect(try WebListenAddress(parsing: "[::1]:8080").isLoopback)
        #expect(try WebListenAddress(parsing: "127.0.0.1:8080").exposureWarning == nil)
        let warning = try WebListenAddress(parsing: "198.18.0.1:80").exposureWarning
        #expect(warning?.contains("the key in the address and the session cookie then travel in plain HTTP") == true, "\(warning ?? "")")
        #expect(throws: WebListenAddress.ParseError.self) { try WebListenAddress(parsing: "0.0.0.0:80") }
        #expect(throws: WebListenAddress.ParseError.self) { try WebListenAddress(parsing: "localhost:80") }
        #expect(throws: WebListenAddress.ParseError.self) { try WebListenAddress(parsing: "127.0.0.1:70000") }
        #expect(throws: WebListenAddress.ParseError.self) { try WebListenAddress(parsing: "::1:80") }
    }

    @Test("a browser is opened only with a display, never when told not to, never as root for a sudo user without saying")
    func browser() {
        #expect(BrowserLaunch.decide(noOpen: false, environment: ["DISPLAY": ":0"], effectiveUserID: 1000) == .open)
        #expect(BrowserLaunch.decide(noOpen: true, environment: ["DISPLAY": ":0"], effectiveUserID: 1000) == .skip(nil))
        #expect(BrowserLaunch.decide(noOpen: false, environment: [:], effectiveUserID: 1000) == .skip(nil))
        guard case .skip(let said?) = BrowserLaunch.decide(noOpen: false, environment: ["DISPLAY": ":0", "SUDO_USER": "ann"],
                                                           effectiveUserID: 0) else { Issue.record("opened as root"); return }
        #expect(said.contains("ann"))
    }

    @Test("site paths: / is index.html, names are plain, .. and hidden files and unknown kinds are nothing")
    func sitePaths() {
        #expect(WebSitePath(requestPath: "/")?.segments == ["index.html"])
        #expect(WebSitePath(requestPath: "/js/app.js")?.contentType == "text/javascript; charset=utf-8")
        #expect(WebSitePath(requestPath: "/../etc/passwd") == nil)
        #expect(WebSitePath(requestPath: "/a/../b") == nil)
        #expect(WebSitePath(requestPath: "/.git/config") == nil)
        #expect(WebSitePath(requestPath: "/a//b") == nil)
        #expect(WebSitePath(requestPath: "/a\\b") == nil)
        #expect(WebSitePath(requestPath: "/x.exe")?.contentType == nil)
    }

    @Test("the session cookie is named for the port, so a second server on the machine does not log the first one out")
    func theCookieIsNamedForThePort() {
        var other = WebAccess(listening: IPEndpoint(address: IPAddress(parsing: "127.0.0.1")!, port: 8124),
                              sessionToken: [UInt8](repeating: 0x01, count: 32), keyLifetime: .seconds(300))
        _ = other.mint(secret: Self.secret, now: Self.start)
        #expect(other.cookieName == "tunnelvision_session_8124" && Self.access.cookieName == "tunnelvision_session_8123")
        let theFirstServersCookie = "tunnelvision_session_8123=" + String(repeating: "01", count: 32)
        #expect(other.decide(Self.request("GET", "/api/flows", host: "127.0.0.1:8124", [("Cookie", theFirstServersCookie)]),
                             now: Self.start) == .refuse(.noSession))
        guard case .login(let login, .some) = other.decide(Self.request("GET", "/?key=" + Self.key, host: "127.0.0.1:8124"),
                                                           now: Self.start) else {
            Issue.record("the key was not exchanged")
            return
        }
        #expect(login.headers["Set-Cookie"]?.hasPrefix("tunnelvision_session_8124=") == true)
    }
}
