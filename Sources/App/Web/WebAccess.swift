import Shared

/// Who may look: the decision for every request, before any responder sees it (the issue's
/// "Who may look"). The history is a record of everything a person's programs said, so:
///
/// 1. only GET, HEAD and POST (405);
/// 2. `Host` must name the address listened on, so a page of another site cannot reach this port
///    through a name of its own that resolves to loopback (DNS rebinding, 421);
/// 3. `GET /?key=KEY` (or HEAD) — an address `tunnelvision ui` printed, or `ui link` made — is
///    exchanged for a session cookie (`HttpOnly`: no script reads it; `SameSite=Strict`: no other
///    site's page sends it) and a redirect to `/`, so the key leaves the address bar and the
///    history (303; for a navigation another site started, a page that goes on to `/`, so the
///    cookie is sent with it). A key opens one browser: the exchange spends it, and one not used
///    within its lifetime expires; a spent key is told so (401). A browser that already has the
///    cookie is sent on to `/` without spending the key;
/// 4. every other request needs that cookie (401);
/// 5. a POST also needs `X-TunnelVision: 1` (a cross-site form cannot set a header, and a
///    cross-site fetch that sets one needs a CORS preflight this server never grants) and an
///    `Origin` that is this server's own (403).
///
/// Keys and the session token are separate random values, so the cookie never shows a key; both
/// are compared in constant time. Randomness and the time are inputs (STYLE practice 7); the
/// shell calls `expire(now:)` when a key's lifetime ends, and learns from every call which keys
/// were spent.
package struct WebAccess: Sendable {
    /// Cookies do not tell ports apart (RFC 6265 § 8.5): two servers on one machine, each with a
    /// cookie of the same name, would log each other out. So the name carries the port.
    static let cookieNamePrefix = "tunnelvision_session_"
    package var cookieName: String { Self.cookieNamePrefix + String(listening.port) }
    static let writeHeaderName = "X-TunnelVision"
    static let writeHeaderValue = "1"
    static let allowedMethods = ["GET", "HEAD", "POST"]
    /// Bytes of randomness in a key and in the session token: 256 bits, beyond guessing.
    package static let randomBytes = 32
    /// Keys waiting to be used at once; minting past it retires the oldest, so asking for
    /// addresses in a loop holds a fixed amount.
    package static let maximumPendingKeys = 32
    /// Spent keys remembered, so that a second use is told "already used" or "expired" rather
    /// than "not this server's".
    package static let rememberedSpentKeys = 64

    package let listening: IPEndpoint
    /// How long a key may wait for its browser.
    package let keyLifetime: Duration
    private let sessionToken: String
    /// The Host values that name the address listened on, lowercased.
    package let acceptedHosts: [String]
    private var pending: [Pending] = []
    private var spent: [(secret: String, how: WebLoginKey.Spent)] = []
    private var nextID: UInt64 = 0

    private struct Pending: Sendable {
        let id: WebLoginKey.ID
        let secret: String
        let expires: ContinuousClock.Instant
    }

    package init(listening: IPEndpoint, sessionToken: [UInt8], keyLifetime: Duration) {
        self.listening = listening
        self.sessionToken = Self.hex(sessionToken)
        self.keyLifetime = keyLifetime
        var hosts = [listening.description]
        if WebListenAddress.isLoopback(listening.address) { hosts.append("localhost:\(listening.port)") }
        if listening.port == 80 { hosts += hosts.map { String($0.dropLast(3)) } }
        acceptedHosts = hosts.map { $0.lowercased() }
    }

    package init(listening: IPEndpoint, keyLifetime: Duration, using random: inout some RandomNumberGenerator) {
        self.init(listening: listening, sessionToken: Self.draw(using: &random), keyLifetime: keyLifetime)
    }

    /// This server's own origin, as a browser sends it.
    package var origin: String { "http://\(listening)" }

    /// The keys minted and not yet spent.
    package var pendingKeys: [WebLoginKey.ID] { pending.map(\.id) }

    // MARK: Keys

    /// A new key, good once until `now + keyLifetime`, and the keys it retired (the oldest, past
    /// `maximumPendingKeys`).
    package mutating func mint(secret: [UInt8], now: ContinuousClock.Instant) -> (key: WebLoginKey, retired: [WebLoginKey.ID]) {
        var retired: [WebLoginKey.ID] = []
        while pending.count >= Self.maximumPendingKeys {
            let oldest = pending.removeFirst()
            remember(oldest.secret, .superseded)
            retired.append(oldest.id)
        }
        let key = Pending(id: WebLoginKey.ID(nextID), secret: Self.hex(secret), expires: now + keyLifetime)
        nextID += 1
        pending.append(key)
        return (WebLoginKey(id: key.id, url: "\(origin)/?key=\(key.secret)", expires: key.expires), retired)
    }

    package mutating func mint(now: ContinuousClock.Instant,
                              using random: inout some RandomNumberGenerator) -> (key: WebLoginKey, retired: [WebLoginKey.ID]) {
        mint(secret: Self.draw(using: &random), now: now)
    }

    /// Retires every key whose lifetime has ended by `now`; the ones retired.
    package mutating func expire(now: ContinuousClock.Instant) -> [WebLoginKey.ID] {
        let due = pending.filter { $0.expires <= now }
        pending.removeAll { $0.expires <= now }
        for key in due { remember(key.secret, .expired) }
        return due.map(\.id)
    }

    private mutating func remember(_ secret: String, _ how: WebLoginKey.Spent) {
        spent.append((secret, how))
        if spent.count > Self.rememberedSpentKeys { spent.removeFirst(spent.count - Self.rememberedSpentKeys) }
    }

    // MARK: Requests

    package enum Decision: Sendable, Equatable {
        /// Let the responder answer it.
        case pass
        /// Answered here: a key exchanged for the cookie (the key, spent now), or a browser that
        /// already has the cookie sent on to `/` (nil: nothing spent).
        case login(HTTPResponse, spent: WebLoginKey.ID?)
        /// Refused, with its reason (the server logs it and sends `reason.response(path:)`).
        case refuse(WebAccessRefusal)
    }

    package mutating func decide(_ request: HTTPRequest, now: ContinuousClock.Instant) -> Decision {
        guard Self.allowedMethods.contains(request.method) else { return .refuse(.methodNotAllowed(request.method)) }
        let host = request.headers["Host"]
        guard let host, acceptedHosts.contains(host.lowercased()) else { return .refuse(.wrongHost(host)) }
        let hasSession = Self.cookie(cookieName, in: request.headers).map { Self.constantTimeEquals($0, sessionToken) } ?? false
        if request.method != "POST", request.path == "/", let key = request.queryValue("key") {
            if hasSession { return .login(Self.redirectHome(setting: nil), spent: nil) }
            return exchange(key, in: request, now: now)
        }
        guard hasSession else { return .refuse(.noSession) }
        if request.method == "POST" {
            guard request.headers[Self.writeHeaderName] == Self.writeHeaderValue else { return .refuse(.missingWriteHeader) }
            let origin = request.headers["Origin"]
            guard let origin, origin.lowercased() == "http://" + host.lowercased() else { return .refuse(.crossOrigin(origin)) }
        }
        return .pass
    }

    /// The key spent for the cookie, or why not. Every pending and remembered key is compared,
    /// each in constant time.
    private mutating func exchange(_ key: String, in request: HTTPRequest, now: ContinuousClock.Instant) -> Decision {
        if let index = pending.firstIndex(where: { Self.constantTimeEquals(key, $0.secret) }) {
            let found = pending[index]
            // Past its lifetime but not yet collected by `expire`: expired all the same.
            guard now < found.expires else { return .refuse(.spentKey(.expired)) }
            pending.remove(at: index)
            remember(found.secret, .used)
            let cookie = "\(cookieName)=\(sessionToken); HttpOnly; SameSite=Strict; Path=/"
            let crossSite = request.headers["Sec-Fetch-Site"]?.lowercased() == "cross-site"
            return .login(crossSite ? Self.hopHome(setting: cookie) : Self.redirectHome(setting: cookie), spent: found.id)
        }
        if let how = spent.last(where: { Self.constantTimeEquals(key, $0.secret) })?.how { return .refuse(.spentKey(how)) }
        return .refuse(.wrongSecret)
    }

    /// The login of a navigation another site started — the page a browser is opened on is a
    /// file, which is another site — as a page of this server's own that goes on to `/`. A
    /// `SameSite=Strict` cookie is not sent anywhere in a navigation another site started,
    /// redirects included (RFC 6265bis, same-site requests), so a 303 would land on `/` without it; a navigation
    /// this server's page starts is its own, and carries it.
    private static func hopHome(setting cookie: String) -> HTTPResponse {
        let page = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=/"><title>TunnelVision</title></head>
        <body><main><p><a href="/">Open TunnelVision</a></p></main></body></html>

        """
        return HTTPResponse(status: .ok, headers: HTTPHeaders([("Content-Type", "text/html; charset=utf-8"), ("Set-Cookie", cookie)]),
                            body: .bytes(Array(page.utf8)))
    }

    private static func redirectHome(setting cookie: String?) -> HTTPResponse {
        var headers = HTTPHeaders([("Location", "/")])
        if let cookie { headers.add("Set-Cookie", cookie) }
        return HTTPResponse(status: .seeOther, headers: headers)
    }

    /// The value of the cookie `name` among every Cookie header (RFC 6265 § 5.4's `name=value; …`).
    static func cookie(_ name: String, in headers: HTTPHeaders) -> String? {
        for header in headers.values("Cookie") {
            for pair in header.split(separator: ";") {
                let trimmed = pair.trimmingOWS
                guard let equals = trimmed.firstIndex(of: "=") else { continue }
                if trimmed[..<equals] == name { return String(trimmed[trimmed.index(after: equals)...]) }
            }
        }
        return nil
    }

    /// Equal or not, in a time that depends only on the lengths — never on where they differ, so
    /// timing does not reveal how much of a guess was right.
    static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8), right = Array(rhs.utf8)
        var difference = UInt8(left.count == right.count ? 0 : 1)
        for index in 0..<max(left.count, right.count) {
            difference |= (index < left.count ? left[index] : 0) ^ (index < right.count ? right[index] : 0)
        }
        return difference == 0
    }

    private static func draw(using random: inout some RandomNumberGenerator) -> [UInt8] {
        (0..<randomBytes).map { _ in UInt8.random(in: .min ... .max, using: &random) }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes { text += [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]] }
        return String(decoding: text, as: UTF8.self)
    }
}
