/// A request's head — request line and header fields, through the blank line — read once it is
/// whole (RFC 9112 § 2–6). The framing facts the parser needs (the body's length) are checked here.
struct HTTPRequestHead: Sendable {
    /// The request without its body.
    let request: HTTPRequest
    /// How many body bytes follow the head.
    let contentLength: Int

    private static let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n"), space = UInt8(ascii: " "),
                       tab = UInt8(ascii: "\t"), colon = UInt8(ascii: ":")

    init(_ bytes: ArraySlice<UInt8>, limits: WebServerLimits) throws(HTTPRefusal) {
        // § 2.2: a CR only before LF, every LF after CR; no NUL anywhere.
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = bytes.startIndex
        for index in bytes.indices {
            switch bytes[index] {
            case 0: throw .badLineEnding
            case Self.cr:
                guard index + 1 < bytes.endIndex, bytes[index + 1] == Self.lf else { throw .badLineEnding }
            case Self.lf:
                guard index > bytes.startIndex, bytes[index - 1] == Self.cr else { throw .badLineEnding }
                lines.append(bytes[lineStart..<(index - 1)])
                lineStart = index + 1
            default: break
            }
        }
        // The last line is the blank one that ends the head.
        guard let requestLine = lines.first, lines.last?.isEmpty == true else { throw .malformedRequestLine }
        let (method, target, version) = try Self.requestLine(requestLine, limits: limits)
        var headers = HTTPHeaders()
        for line in lines.dropFirst().dropLast() {
            let (name, value) = try Self.field(line)
            headers.add(name, value)
        }
        // § 3.2: exactly one Host in HTTP/1.1 (1.0 clients may omit it).
        let hosts = headers.values("Host").count
        if version == "HTTP/1.1" ? hosts != 1 : hosts > 1 { throw .missingHost }
        // As two Hosts are: two Origins leave the cross-origin check two answers to choose from.
        if headers.values("Origin").count > 1 { throw .duplicateOrigin }
        // § 6.1: a coding we do not decode is refused rather than guessed at.
        if let coding = headers["Transfer-Encoding"] { throw .unsupportedTransferEncoding(coding) }
        contentLength = try Self.contentLength(headers.values("Content-Length"), limit: limits.maximumBodyBytes)
        let (path, query) = try HTTPTargetDecoding.split(target)
        request = HTTPRequest(method: method, target: target, path: path, query: query, headers: headers, version: version)
    }

    /// `method SP request-target SP HTTP-version`, single spaces (§ 3).
    private static func requestLine(_ line: ArraySlice<UInt8>, limits: WebServerLimits)
        throws(HTTPRefusal) -> (method: String, target: String, version: String) {
        let parts = line.split(separator: Self.space, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformedRequestLine }
        let (method, target, version) = (parts[0], parts[1], parts[2])
        if target.count > limits.maximumTargetBytes { throw .targetTooLong(limit: limits.maximumTargetBytes) }
        guard !method.isEmpty, method.allSatisfy(isTokenCharacter) else { throw .malformedRequestLine }
        // § 3.2.1 origin-form only; visible ASCII only (§ 3.2: no whitespace or controls in a target).
        guard target.first == UInt8(ascii: "/"), target.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw .malformedRequestLine
        }
        let versionText = String(decoding: version, as: UTF8.self)
        switch versionText {
        case "HTTP/1.1", "HTTP/1.0":
            break
        default:
            // § 2.3: "HTTP/" DIGIT "." DIGIT is a version we do not serve; anything else is no version.
            let digits = Array(version.dropFirst(5))
            let looksLikeVersion = version.starts(with: "HTTP/".utf8) && digits.count == 3
                && isDigit(digits[0]) && digits[1] == UInt8(ascii: ".") && isDigit(digits[2])
            throw looksLikeVersion ? .unsupportedVersion(versionText) : .malformedRequestLine
        }
        return (String(decoding: method, as: UTF8.self), String(decoding: target, as: UTF8.self), versionText)
    }

    /// `field-name ":" OWS field-value OWS` (§ 5).
    private static func field(_ line: ArraySlice<UInt8>) throws(HTTPRefusal) -> (String, String) {
        // § 5.2: obs-fold (a line starting with whitespace) is refused.
        if let first = line.first, first == Self.space || first == Self.tab {
            throw .malformedHeader("a line starts with whitespace (a folded header)")
        }
        guard let colon = line.firstIndex(of: Self.colon) else { throw .malformedHeader("a line has no colon") }
        let name = line[..<colon]
        guard !name.isEmpty else { throw .malformedHeader("a header has no name") }
        // § 5.1: no whitespace between the name and the colon.
        if let last = name.last, last == Self.space || last == Self.tab {
            throw .malformedHeader("whitespace before a colon")
        }
        guard name.allSatisfy(isTokenCharacter) else { throw .malformedHeader("a header name holds a character a name may not") }
        var value = line[(colon + 1)...]
        while let first = value.first, first == Self.space || first == Self.tab { value.removeFirst() }
        while let last = value.last, last == Self.space || last == Self.tab { value.removeLast() }
        // § 5.5: field-vchar, SP, HTAB, obs-text; no other control character.
        guard value.allSatisfy({ $0 == Self.tab || $0 >= 0x20 && $0 != 0x7F }) else {
            throw .malformedHeader("a header value holds a control character")
        }
        return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    /// § 6.3: one decimal length; several fields or a list must all say the same.
    private static func contentLength(_ fields: [String], limit: Int) throws(HTTPRefusal) -> Int {
        var length: Int?
        for field in fields {
            for element in field.split(separator: ",", omittingEmptySubsequences: false) {
                let text = element.trimmingOWS
                guard !text.isEmpty, text.utf8.allSatisfy(isDigit) else { throw .badContentLength }
                // Past the limit's digits the exact value no longer matters: it is too large.
                let digits = text.drop { $0 == "0" }
                guard digits.count <= String(limit).count, let value = Int(digits.isEmpty ? "0" : String(digits)) else {
                    throw .bodyTooLarge(limit: limit)
                }
                if let length, length != value { throw .badContentLength }
                length = value
            }
        }
        if let length, length > limit { throw .bodyTooLarge(limit: limit) }
        return length ?? 0
    }
}

/// RFC 9110 § 5.6.2: tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" /
/// "_" / "`" / "|" / "~" / DIGIT / ALPHA.
func isTokenCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        true
    default:
        "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
}

func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

extension StringProtocol {
    /// Without the spaces and tabs around it (RFC 9110's OWS).
    var trimmingOWS: Substring {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
