/// The HTTP/1.1 messages the web app's server and its API exchange: the parser (`HTTPRequestParser`)
/// hands over an `HTTPRequest`, a responder answers an `HTTPResponse`, the connection
/// (`HTTPConnection`) encodes it. Values only: no sockets here.

/// Header fields in the order received, looked up without regard to case (RFC 9110 § 5.1).
public struct HTTPHeaders: Sendable, Equatable {
    public private(set) var fields: [(name: String, value: String)]

    public init(_ fields: [(name: String, value: String)] = []) {
        self.fields = fields
    }

    /// The first field of that name, if any.
    public subscript(name: String) -> String? {
        fields.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// Every field of that name, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    public mutating func add(_ name: String, _ value: String) {
        fields.append((name, value))
    }

    /// Replaces every field of that name with one.
    public mutating func set(_ name: String, _ value: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
        fields.append((name, value))
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}

/// One request, as parsed: the target split into its path and query (both percent-decoded).
public struct HTTPRequest: Sendable, Equatable {
    public var method: String
    /// The request target as sent (origin-form: "/api/flows?search=a").
    public var target: String
    /// The decoded path: "/api/flows".
    public var path: String
    /// The decoded query, in order: [("search", "a")].
    public var query: [HTTPQueryItem]
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// "HTTP/1.1" or "HTTP/1.0": whether the connection stays open after the answer depends on it.
    public var version: String

    public init(method: String, target: String, path: String, query: [HTTPQueryItem] = [],
                headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], version: String = "HTTP/1.1") {
        self.method = method
        self.target = target
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.version = version
    }

    /// The first query value of that name.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }
}

public struct HTTPQueryItem: Sendable, Equatable {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

public struct HTTPStatus: Sendable, Equatable {
    public var code: Int
    public var reason: String
    public init(_ code: Int, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public static let ok = HTTPStatus(200, "OK")
    public static let noContent = HTTPStatus(204, "No Content")
    public static let seeOther = HTTPStatus(303, "See Other")
    public static let notModified = HTTPStatus(304, "Not Modified")
    public static let badRequest = HTTPStatus(400, "Bad Request")
    public static let unauthorized = HTTPStatus(401, "Unauthorized")
    public static let forbidden = HTTPStatus(403, "Forbidden")
    public static let notFound = HTTPStatus(404, "Not Found")
    public static let methodNotAllowed = HTTPStatus(405, "Method Not Allowed")
    public static let requestTimeout = HTTPStatus(408, "Request Timeout")
    public static let conflict = HTTPStatus(409, "Conflict")
    public static let contentTooLarge = HTTPStatus(413, "Content Too Large")
    public static let uriTooLong = HTTPStatus(414, "URI Too Long")
    public static let unsupportedMediaType = HTTPStatus(415, "Unsupported Media Type")
    public static let misdirectedRequest = HTTPStatus(421, "Misdirected Request")
    public static let headerFieldsTooLarge = HTTPStatus(431, "Request Header Fields Too Large")
    public static let internalServerError = HTTPStatus(500, "Internal Server Error")
    public static let notImplemented = HTTPStatus(501, "Not Implemented")
    public static let serviceUnavailable = HTTPStatus(503, "Service Unavailable")
    public static let versionNotSupported = HTTPStatus(505, "HTTP Version Not Supported")
}

/// What a responder answers. `eventStream` keeps the connection open as a Server-Sent Events
/// stream (the server then pushes the live feed's events to it); `file` is a body left on disk
/// and sent a chunk at a time (a download); `bytes` is a body already in memory.
public struct HTTPResponse: Sendable, Equatable {
    public enum Body: Sendable, Equatable {
        case bytes([UInt8])
        case eventStream
        case file(HTTPFileBody)
    }

    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: Body

    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Answers requests that the server's access checks already let through.
public protocol WebResponder: Sendable {
    func respond(to request: HTTPRequest) async -> HTTPResponse
}

extension String {
    /// ASCII case-insensitive equality, as header names compare.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        utf8.count == other.utf8.count && zip(utf8, other.utf8).allSatisfy { Self.lower($0) == Self.lower($1) }
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        (65...90).contains(byte) ? byte + 32 : byte
    }
}
