import Shared
import Testing
@testable import App

/// The door's keys, directly: each opens one browser, once, within its lifetime; the time and the
/// random bytes are the test's.
@Suite("WebAccess keys")
struct WebAccessKeyTests {
    static let endpoint = IPEndpoint(address: IPAddress(parsing: "127.0.0.1")!, port: 8123)
    static let start = ContinuousClock.now
    static let lifetime = Duration.seconds(300)
    static let session = "tunnelvision_session_8123=" + String(repeating: "01", count: 32)

    static func fresh() -> WebAccess {
        WebAccess(listening: endpoint, sessionToken: [UInt8](repeating: 0x01, count: 32), keyLifetime: lifetime)
    }

    static func secret(_ byte: UInt8) -> [UInt8] { [UInt8](repeating: byte, count: 32) }

    static func login(_ key: String, method: String = "GET", cookie: Bool = false, fetchSite: String? = nil) -> HTTPRequest {
        var headers = HTTPHeaders([("Host", "127.0.0.1:8123")])
        if cookie { headers.add("Cookie", session) }
        if let fetchSite { headers.add("Sec-Fetch-Site", fetchSite) }
        return HTTPRequest(method: method, target: "/?key=" + key, path: "/", query: [HTTPQueryItem("key", key)], headers: headers)
    }

    static func key(of url: String) -> String { String(url.split(separator: "=").last!) }

    @Test("a key is spent by its first use: the second is refused as already used, and the cookie it bought still passes")
    func once() {
        var access = Self.fresh()
        let key = access.mint(secret: Self.secret(0xAB), now: Self.start).key
        #expect(key.expires == Self.start + Self.lifetime)
        guard case .login(let response, key.id) = access.decide(Self.login(Self.key(of: key.url)), now: Self.start) else {
            Issue.record("the key was not exchanged")
            return
        }
        #expect(response.headers["Set-Cookie"] == Self.session + "; HttpOnly; SameSite=Strict; Path=/")
        #expect(access.pendingKeys.isEmpty)
        #expect(access.decide(Self.login(Self.key(of: key.url)), now: Self.start + .seconds(1)) == .refuse(.spentKey(.used)))
        #expect(WebAccessRefusal.spentKey(.used).sentence.contains("already used"))
        #expect(WebAccessRefusal.spentKey(.used).sentence.contains("'tunnelvision ui link' prints a new address"))
        #expect(WebAccessRefusal.spentKey(.used).status.code == 401)
        let later = HTTPRequest(method: "GET", target: "/api/flows", path: "/api/flows",
                                headers: HTTPHeaders([("Host", "127.0.0.1:8123"), ("Cookie", Self.session)]))
        #expect(access.decide(later, now: Self.start + .seconds(86_400)) == .pass, "the session lasts as long as the server")
    }

    @Test("an unused key is refused as expired from the end of its lifetime, and expire(now:) collects it then, not before")
    func expiry() {
        var access = Self.fresh()
        let key = access.mint(secret: Self.secret(0xAB), now: Self.start).key
        let end = Self.start + Self.lifetime
        #expect(access.expire(now: end - .milliseconds(1)).isEmpty)
        #expect(access.decide(Self.login(Self.key(of: key.url)), now: end) == .refuse(.spentKey(.expired)))
        #expect(access.pendingKeys == [key.id], "refused, but left for expire to collect (the shell removes its file then)")
        #expect(access.expire(now: end) == [key.id])
        #expect(access.pendingKeys.isEmpty)
        #expect(access.decide(Self.login(Self.key(of: key.url)), now: end + .seconds(1)) == .refuse(.spentKey(.expired)))
        #expect(WebAccessRefusal.spentKey(.expired).sentence.contains("has expired"))
    }

    @Test("keys are independent: using one leaves the others good, and a key never made is not this server's")
    func several() {
        var access = Self.fresh()
        let first = access.mint(secret: Self.secret(1), now: Self.start).key
        let second = access.mint(secret: Self.secret(2), now: Self.start + .seconds(10)).key
        #expect(first.id != second.id && first.url != second.url)
        guard case .login(_, second.id) = access.decide(Self.login(Self.key(of: second.url)), now: Self.start + .seconds(20)) else {
            Issue.record("the second key was not exchanged")
            return
        }
        #expect(access.pendingKeys == [first.id])
        guard case .login(_, first.id) = access.decide(Self.login(Self.key(of: first.url)), now: Self.start + .seconds(299)) else {
            Issue.record("the first key was not exchanged within its lifetime")
            return
        }
        #expect(access.decide(Self.login(String(repeating: "03", count: 32)), now: Self.start) == .refuse(.wrongSecret))
        #expect(access.decide(Self.login(""), now: Self.start) == .refuse(.wrongSecret))
    }

    @Test("minting past the pending maximum retires the oldest unused key, which is then refused as retired")
    func superseded() {
        var access = Self.fresh()
        var minted: [WebLoginKey] = []
        for index in 0..<WebAccess.maximumPendingKeys {
            let (key, retired) = access.mint(secret: Self.secret(UInt8(index)), now: Self.start)
            #expect(retired.isEmpty)
            minted.append(key)
        }
        let (newest, retired) = access.mint(secret: Self.secret(0xF0), now: Self.start)
        #expect(retired == [minted[0].id])
        #expect(access.pendingKeys.count == WebAccess.maximumPendingKeys && access.pendingKeys.last == newest.id)
        #expect(access.decide(Self.login(Self.key(of: minted[0].url)), now: Self.start) == .refuse(.spentKey(.superseded)))
        if case .login(_, minted[1].id) = access.decide(Self.login(Self.key(of: minted[1].url)), now: Self.start) {} else {
            Issue.record("the second oldest key was retired too")
        }
    }

    @Test("spent keys are remembered up to a bound; one spent long ago reads as not this server's")
    func rememberedBound() {
        var access = Self.fresh()
        let old = access.mint(secret: Self.secret(0xEE), now: Self.start).key
        _ = access.decide(Self.login(Self.key(of: old.url)), now: Self.start)
        for index in 0..<WebAccess.rememberedSpentKeys {
            var bytes = Self.secret(0)
            bytes[0] = UInt8(index)
            let key = access.mint(secret: bytes, now: Self.start).key
            _ = access.decide(Self.login(Self.key(of: key.url)), now: Self.start)
        }
        #expect(access.decide(Self.login(Self.key(of: old.url)), now: Self.start) == .refuse(.wrongSecret))
    }

    @Test("a browser that has the cookie is sent on to / by any key address, and the key stays good for another browser")
    func alreadyIn() {
        var access = Self.fresh()
        let key = access.mint(secret: Self.secret(0xAB), now: Self.start).key
        let decision = access.decide(Self.login(Self.key(of: key.url), cookie: true), now: Self.start)
        guard case .login(let response, nil) = decision else { Issue.record("\(decision)"); return }
        #expect(response.status == .seeOther && response.headers["Location"] == "/" && response.headers["Set-Cookie"] == nil)
        #expect(access.pendingKeys == [key.id])
        #expect(access.decide(Self.login("00", cookie: true), now: Self.start) == .login(response, spent: nil))
    }

    @Test("HEAD with a key is answered as GET is (the key spent); a POST with one is no login")
    func methods() {
        var access = Self.fresh()
        let key = access.mint(secret: Self.secret(0xAB), now: Self.start).key
        var copy = access
        let get = copy.decide(Self.login(Self.key(of: key.url)), now: Self.start)
        #expect(access.decide(Self.login(Self.key(of: key.url), method: "HEAD"), now: Self.start) == get)
        #expect(access.pendingKeys.isEmpty)
        var other = Self.fresh()
        let posted = other.mint(secret: Self.secret(0xAB), now: Self.start).key
        #expect(other.decide(Self.login(Self.key(of: posted.url), method: "POST"), now: Self.start) == .refuse(.noSession))
        #expect(other.pendingKeys == [posted.id])
    }

    @Test("a login another site's page started (the browser's launch page is a file) is a page of ours that goes on to /, so the Strict cookie goes with it")
    func crossSite() {
        var access = Self.fresh()
        let key = access.mint(secret: Self.secret(0xAB), now: Self.start).key
        let decision = access.decide(Self.login(Self.key(of: key.url), fetchSite: "cross-site"), now: Self.start)
        guard case .login(let response, key.id) = decision else { Issue.record("\(decision)"); return }
        #expect(response.status == .ok && response.headers["Location"] == nil)
        #expect(response.headers["Set-Cookie"] == Self.session + "; HttpOnly; SameSite=Strict; Path=/")
        guard case .bytes(let body) = response.body else { Issue.record("no page"); return }
        let page = String(decoding: body, as: UTF8.self)
        #expect(page.contains("<meta http-equiv=\"refresh\" content=\"0; url=/\">") && !page.contains("<script"))
        for site in ["none", "same-origin", "same-site"] {
            var other = Self.fresh()
            let typed = other.mint(secret: Self.secret(0xCD), now: Self.start).key
            guard case .login(let redirect, typed.id) = other.decide(Self.login(Self.key(of: typed.url), fetchSite: site),
                                                                     now: Self.start) else {
                Issue.record("\(site) was not let in")
                continue
            }
            #expect(redirect.status == .seeOther, "Sec-Fetch-Site: \(site)")
        }
    }
}
