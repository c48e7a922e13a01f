/// Why the parser refused a request (RFC 9112). Each has the status the client is told and a
/// sentence the server logs and sends; after a refusal the connection is closed, since the rest of
/// its bytes can no longer be framed.
package enum HTTPRefusal: Error, Sendable, Equatable {
    /// The request line is not `METHOD SP /target SP HTTP/x.y` (§ 3).
    case malformedRequestLine
    /// An HTTP version other than 1.1 and 1.0.
    case unsupportedVersion(String)
    /// The request line and header fields exceed the limit (RFC 6585 § 5: 431).
    case headerSectionTooLarge(limit: Int)
    /// The request target exceeds the limit (RFC 9110 § 15.5.15: 414).
    case targetTooLong(limit: Int)
    /// Content-Length above the limit (413), refused before the body is read.
    case bodyTooLarge(limit: Int)
    /// A Transfer-Encoding was sent: this server reads only Content-Length bodies (501).
    case unsupportedTransferEncoding(String)
    /// Content-Length is not digits, or several differ (§ 6.3: 400).
    case badContentLength
    /// A header line is not `name: value` — obs-fold, whitespace before the colon, an empty or
    /// non-token name, a control character in the value (§ 5).
    case malformedHeader(String)
    /// A CR not followed by LF, a LF without CR, or a NUL (§ 2.2).
    case badLineEnding
    /// An HTTP/1.1 request without exactly one Host field (§ 3.2).
    case missingHost
    /// More than one Origin field (RFC 6454 § 7.3: a user agent sends at most one): which of
    /// them the origin check should believe cannot be told, so neither is.
    case duplicateOrigin
    /// A `%` not followed by two hex digits, or a decoded NUL, in the target.
    case badPercentEncoding

    package var status: HTTPStatus {
        switch self {
        case .malformedRequestLine, .badContentLength, .malformedHeader, .badLineEnding, .missingHost,
             .duplicateOrigin, .badPercentEncoding: .badRequest
        case .unsupportedVersion: .versionNotSupported
        case .headerSectionTooLarge: .headerFieldsTooLarge
        case .targetTooLong: .uriTooLong
        case .bodyTooLarge: .contentTooLarge
        case .unsupportedTransferEncoding: .notImplemented
        }
    }

    /// What the client is told, and what the server logs.
    package var sentence: String {
        switch self {
        case .malformedRequestLine:
            "the request line is not 'METHOD /path HTTP/1.1'"
        case .unsupportedVersion(let version):
            "HTTP version \(version) is not served; use HTTP/1.1 or HTTP/1.0"
        case .headerSectionTooLarge(let limit):
            "the request line and headers are over \(limit) bytes; send fewer or shorter headers"
        case .targetTooLong(let limit):
            "the request target is over \(limit) bytes; shorten the address or its query"
        case .bodyTooLarge(let limit):
            "the request body is over \(limit) bytes"
        case .unsupportedTransferEncoding(let coding):
            "Transfer-Encoding \(coding) is not read by this server; send the body with a Content-Length"
        case .badContentLength:
            "Content-Length is not one decimal number"
        case .malformedHeader(let why):
            "a header line is malformed: \(why)"
        case .badLineEnding:
            "a line does not end in CRLF, or the request holds a NUL byte"
        case .missingHost:
            "an HTTP/1.1 request needs exactly one Host header"
        case .duplicateOrigin:
            "a request may carry one Origin header, not several"
        case .badPercentEncoding:
            "the request target has a '%' not followed by two hex digits, or an encoded NUL"
        }
    }
}
