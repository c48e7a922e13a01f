import Foundation

/// What reading one message's head from the front of kept bytes gave.
enum HTTP1HeadOutcome: Equatable {
    /// The head, how its body is framed, and how many bytes the head took.
    case head(DecryptedHTTPMessage.StartLine, [HTTPField], DecryptedHTTPBody.Framing, consumed: Int)
    /// The bytes ended inside the head.
    case headCut
    /// Not an HTTP/1.1 message: why.
    case notHTTP(String)

    var isHead: Bool { if case .head = self { true } else { false } }
}

/// Reads HTTP/1.1 messages (RFC 9112) into `DecryptedHTTPMessage`s:
///
///     HTTP-message = start-line CRLF *( field-line CRLF ) CRLF [ message-body ]   ; §2.1
///     request-line = method SP request-target SP HTTP-version                    ; §3
///     status-line  = HTTP-version SP status-code SP [ reason-phrase ]              ; §4
///     field-line   = field-name ":" OWS field-value OWS                            ; §5
///
/// It reads a head from kept bytes; `HTTP1MessageReader` reads the body after it. A bare LF ends a
/// line too (§2.2). Bounded: lines of at most `DecryptedHTTPMessage.maxLineBytes`, at most
/// `maxFields` fields.
enum HTTP1Reader {
    /// The head at the front of `bytes`; for a response, `requestMethod` is the method of the
    /// request it answers (a response to HEAD has no body, §6.3), nil when that was not kept.
    static func head(_ bytes: ArraySlice<UInt8>, isRequest: Bool, requestMethod: String?) -> HTTP1HeadOutcome {
        var lines = HTTP1Lines(bytes, limit: DecryptedHTTPMessage.maxLineBytes)
        guard let first = lines.next() else { return lines.exhausted ? .headCut : .notHTTP("a header line longer than \(DecryptedHTTPMessage.maxLineBytes) bytes") }
        guard let startText = String(validating: first, as: UTF8.self) else { return .notHTTP("a start line that is not text") }
        let start: DecryptedHTTPMessage.StartLine
        switch isRequest ? requestLine(startText) : statusLine(startText) {
        case let .success(line): start = line
        case let .failure(refusal): return .notHTTP(refusal.reason)
        }
        var fields: [HTTPField] = []
        while true {
            guard let line = lines.next() else {
                return lines.exhausted ? .headCut : .notHTTP("a header line longer than \(DecryptedHTTPMessage.maxLineBytes) bytes")
            }
            if line.isEmpty { break }
            guard fields.count < DecryptedHTTPMessage.maxFields else { return .notHTTP("more than \(DecryptedHTTPMessage.maxFields) header fields") }
            guard let field = fieldLine(line) else { return .notHTTP("a header line that is not 'name: value'") }
            fields.append(field)
        }
        let framing = DecryptedHTTPBody.framing(isRequest: isRequest, start: start, fields: fields, requestMethod: requestMethod)
        guard let framing else { return .notHTTP("a Content-Length that is not one number") }
        return .head(start, fields, framing, consumed: lines.position - bytes.startIndex)
    }

    struct Refusal: Error { let reason: String }

    /// §3: method SP request-target SP HTTP-version, the method a token.
    static func requestLine(_ line: String) -> Result<DecryptedHTTPMessage.StartLine, Refusal> {
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, isToken(parts[0]), !parts[1].isEmpty, isVersion(parts[2]) else {
            return .failure(Refusal(reason: "a first line that is not 'METHOD target HTTP/1.x'"))
        }
        return .success(.request(method: String(parts[0]), target: String(parts[1]), version: String(parts[2])))
    }

    /// §4: HTTP-version SP 3DIGIT SP reason-phrase (the reason may be empty, its SP missing).
    static func statusLine(_ line: String) -> Result<DecryptedHTTPMessage.StartLine, Refusal> {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, isVersion(parts[0]), parts[1].count == 3, parts[1].allSatisfy(\.isASCIIDigit),
              let status = Int(parts[1]) else {
            return .failure(Refusal(reason: "a first line that is not 'HTTP/1.x status reason'"))
        }
        return .success(.response(version: String(parts[0]), status: status, reason: parts.count == 3 ? String(parts[2]) : ""))
    }

    /// §5: a token name, a colon with no space before it, the value without surrounding OWS.
    static func fieldLine(_ line: ArraySlice<UInt8>) -> HTTPField? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")),
              let name = String(validating: line[..<colon], as: UTF8.self), isToken(Substring(name)) else { return nil }
        let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        return HTTPField(name: name, value: value)
    }

    /// tchar (RFC 9110 §5.6.2).
    static func isToken(_ text: Substring) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar))
        }
    }

    /// HTTP/1.x (§2.3); HTTP/2's preface says HTTP/2.0 and is not one.
    static func isVersion(_ text: Substring) -> Bool {
        text.count == 8 && text.hasPrefix("HTTP/1.") && text.last?.isASCIIDigit == true
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

/// Lines of a head, each without its CRLF (or bare LF); a line longer than `limit` bytes is refused.
struct HTTP1Lines {
    private let bytes: ArraySlice<UInt8>
    private let limit: Int
    private(set) var position: Int
    /// The bytes ended before a line did.
    private(set) var exhausted = false

    init(_ bytes: ArraySlice<UInt8>, limit: Int, at position: Int? = nil) {
        self.bytes = bytes
        self.limit = limit
        self.position = position ?? bytes.startIndex
    }

    mutating func next() -> ArraySlice<UInt8>? {
        let end = min(bytes.endIndex, position + limit)
        guard let newline = bytes[position..<end].firstIndex(of: UInt8(ascii: "\n")) else {
            exhausted = end == bytes.endIndex
            return nil
        }
        var line = bytes[position..<newline]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        position = newline + 1
        return line
    }
}
