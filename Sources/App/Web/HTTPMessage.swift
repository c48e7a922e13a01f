/// The HTTP/1.1 messages the web app's server and its API exchange: the parser (`HTTPRequestParser`)
/// hands over an `HTTPRequest`, a responder answers an `HTTPResponse`, the connection
/// (`HTTPConnection`) encodes it. Values only: no sockets here.

/// Header fields in the order received, looked up without regard to case (RFC 9110 § 5.1).
package struct HTTPHeaders: Sendable, Equatable {
    package private(set) var fields: [(name: String, value: String)]

    package init(_ fields: [(name: String, value: String)] = []) {
        self.fields = fields
    }

    /// The first field of that name, if any.
    package subscript(name: String) -> String? {
        fields.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// Every field of that name, in order.
    package func values(_ name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    package mutating func add(_ name: String, _ value: String) {
        fields.append((name, value))
    }

    /// Replaces every field of that name with one.
    package mutating func set(_ name: String, _ value: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
        fields.append((name, value))
    }

    package static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}

/// One request, as parsed: the target split into its path and query (both percent-decoded).
package struct HTTPRequest: Sendable, Equatable {
    package var method: String
    /// The request target as sent (origin-form: "/api/flows?search=a").
    package var target: String
    /// The decoded path: "/api/flows".
    package var path: String
    /// The decoded query, in order: [("search", "a")].
    package var query: [HTTPQueryItem]
    package var headers: HTTPHeaders
    package var body: [UInt8]
    /// "HTTP/1.1" or "HTTP/1.0": whether the connection stays open after the answer depends on it.
    package var version: String

    package init(method: String, target: String, path: String, query: [HTTPQueryItem] = [],
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
    func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }
}

package struct HTTPQueryItem: Sendable, Equatable {
    package var name: String
    package var value: String
    package init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

package struct HTTPStatus: Sendable, Equatable {
    package var code: Int
    package var reason: String
    package init(_ code: Int, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    package static let ok = HTTPStatus(200, "OK")
    static let noContent = HTTPStatus(204, "No Content")
    package static let seeOther = HTTPStatus(303, "See Other")
    static let notModified = HTTPStatus(304, "Not Modified")
    package static let badRequest = HTTPStatus(400, "Bad Request")
    package static let unauthorized = HTTPStatus(401, "Unauthorized")
    package static let forbidden = HTTPStatus(403, "Forbidden")
    package static let notFound = HTTPStatus(404, "Not Found")
    package static let methodNotAllowed = HTTPStatus(405, "Method Not Allowed")
    static let requestTimeout = HTTPStatus(408, "Request Timeout")
    package static let conflict = HTTPStatus(409, "Conflict")
    static let contentTooLarge = HTTPStatus(413, "Content Too Large")
    static let uriTooLong = HTTPStatus(414, "URI Too Long")
    static let unsupportedMediaType = HTTPStatus(415, "Unsupported Media Type")
    static let misdirectedRequest = HTTPStatus(421, "Misdirected Request")
    static let headerFieldsTooLarge = HTTPStatus(431, "Request Header Fields Too Large")
    package static let internalServerError = HTTPStatus(500, "Internal Server Error")
    package static let notImplemented = HTTPStatus(501, "Not Implemented")
    static let serviceUnavailable = HTTPStatus(503, "Service Unavailable")
    static let versionNotSupported = HTTPStatus(505, "HTTP Version Not Supported")
}

/// What a responder answers. `eventStream` keeps the connection open as a Server-Sent Events
/// stream (the server then pushes the live feed's events to it); `file` is a body left on disk
/// and sent a chunk at a time (a download); `bytes` is a body already in memory.
package struct HTTPResponse: Sendable, Equatable {
    package enum Body: Sendable, Equatable {
        case bytes([UInt8])
        case eventStream
        case file(HTTPFileBody)
    }

    package var status: HTTPStatus
    package var headers: HTTPHeaders
    package var body: Body

    package init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Answers requests that the server's access checks already let through.
package protocol WebResponder: Sendable {
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
