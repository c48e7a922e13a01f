import Shared

/// Who may look: the decision for every request, before any responder sees it (the issue's
/// "Who may look"). The history is a record of everything a person's programs said, so:
///
/// 1. only GET, HEAD and POST (405);
/// 2. `Host` must name the address listened on, so a page of another site cannot reach this port
///    through a name of its own that resolves to loopback (DNS rebinding, 421);
/// 3. `GET /?key=SECRET` — the address `tunnelvision ui` prints — is exchanged for a session
///    cookie (`HttpOnly`: no script reads it; `SameSite=Strict`: no other site's page sends it)
///    and a redirect to `/`, so the key leaves the address bar and the history (303);
/// 4. every other request needs that cookie (401);
/// 5. a POST also needs `X-TunnelVision: 1` (a cross-site form cannot set a header, and a
///    cross-site fetch that sets one needs a CORS preflight this server never grants) and an
///    `Origin` that is this server's own (403).
///
/// The key and the session token are separate random values, so the cookie never shows the key;
/// both are compared in constant time. Randomness is an input (STYLE practice 7).
public struct WebAccess: Sendable {
    /// Cookies do not tell ports apart (RFC 6265 § 8.5): two servers on one machine, each with a
    /// cookie of the same name, would log each other out. So the name carries the port.
    public static let cookieNamePrefix = "tunnelvision_session_"
    public var cookieName: String { Self.cookieNamePrefix + String(listening.port) }
    public static let writeHeaderName = "X-TunnelVision"
    public static let writeHeaderValue = "1"
    public static let allowedMethods = ["GET", "HEAD", "POST"]
    /// Bytes of randomness in the key and in the session token: 256 bits, beyond guessing.
    public static let randomBytes = 32

    public let listening: IPEndpoint
    /// The key the printed address carries, as hex.
    public let secret: String
    private let sessionToken: String
    /// The Host values that name the address listened on, lowercased.
    public let acceptedHosts: [String]

    public init(listening: IPEndpoint, secret: [UInt8], sessionToken: [UInt8]) {
        self.listening = listening
        self.secret = Self.hex(secret)
        self.sessionToken = Self.hex(sessionToken)
        var hosts = [listening.description]
        if WebListenAddress.isLoopback(listening.address) { hosts.append("localhost:\(listening.port)") }
        if listening.port == 80 { hosts += hosts.map { String($0.dropLast(3)) } }
        acceptedHosts = hosts.map { $0.lowercased() }
    }

    public init(listening: IPEndpoint, using random: inout some RandomNumberGenerator) {
        func draw() -> [UInt8] { (0..<Self.randomBytes).map { _ in UInt8.random(in: .min ... .max, using: &random) } }
        self.init(listening: listening, secret: draw(), sessionToken: draw())
    }

    /// The address to open: it carries the key.
    public var url: String { "\(origin)/?key=\(secret)" }
    /// This server's own origin, as a browser sends it.
    public var origin: String { "http://\(listening)" }

    public enum Decision: Sendable, Equatable {
        /// Let the responder answer it.
        case pass
        /// Answered here: the key exchanged for the cookie.
        case answer(HTTPResponse)
        /// Refused, with its reason (the server logs it and sends `reason.response(path:)`).
        case refuse(WebAccessRefusal)
    }

    public func decide(_ request: HTTPRequest) -> Decision {
        guard Self.allowedMethods.contains(request.method) else { return .refuse(.methodNotAllowed(request.method)) }
        let host = request.headers["Host"]
        guard let host, acceptedHosts.contains(host.lowercased()) else { return .refuse(.wrongHost(host)) }
        if request.method == "GET", request.path == "/", let key = request.queryValue("key") {
            guard Self.constantTimeEquals(key, secret) else { return .refuse(.wrongSecret) }
            return .answer(HTTPResponse(status: .seeOther, headers: HTTPHeaders([
                ("Location", "/"),
                ("Set-Cookie", "\(cookieName)=\(sessionToken); HttpOnly; SameSite=Strict; Path=/"),
            ])))
        }
        guard let cookie = Self.cookie(cookieName, in: request.headers),
              Self.constantTimeEquals(cookie, sessionToken) else { return .refuse(.noSession) }
        if request.method == "POST" {
            guard request.headers[Self.writeHeaderName] == Self.writeHeaderValue else { return .refuse(.missingWriteHeader) }
            let origin = request.headers["Origin"]
            guard let origin, origin.lowercased() == "http://" + host.lowercased() else { return .refuse(.crossOrigin(origin)) }
        }
        return .pass
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

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes { text += [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]] }
        return String(decoding: text, as: UTF8.self)
    }
}
