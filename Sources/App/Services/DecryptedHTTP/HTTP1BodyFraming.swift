import Foundation

/// How an HTTP/1.1 message's body is delimited and read (RFC 9112 §6).
extension DecryptedHTTPBody {
    /// §6.3's rules in order; nil when Content-Length is not one number.
    static func framing(isRequest: Bool, start: DecryptedHTTPMessage.StartLine, fields: [HTTPField],
                        requestMethod: String?) -> Framing? {
        if case let .response(_, status, _) = start,
           requestMethod?.uppercased() == "HEAD" || (100..<200).contains(status) || status == 204 || status == 304 {
            return Framing.none
        }
        let named = { (name: String) in fields.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value) }
        let codings = named("Transfer-Encoding").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if !codings.isEmpty { return codings.last == "chunked" ? .chunked : isRequest ? nil : .untilClose }
        let lengths = Set(named("Content-Length").flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) })
        if lengths.isEmpty { return isRequest ? Framing.none : .untilClose }
        guard lengths.count == 1, let text = lengths.first, !text.isEmpty, text.allSatisfy(\.isASCIIDigit),
              let length = Int(text) else { return nil }
        return .length(length)
    }

    /// chunked-body = *chunk last-chunk trailer-section CRLF; chunk = chunk-size [ chunk-ext ] CRLF
    /// chunk-data CRLF (§7.1). Extensions and trailers are read past, not kept.
    static func chunked(_ bytes: ArraySlice<UInt8>) -> (DecryptedHTTPBody?, Int) {
        var data = Data()
        var lines = HTTP1Lines(bytes, limit: bytes.count)
        let partial = { (used: Int) in (DecryptedHTTPBody(framing: .chunked, bytes: data, isComplete: false), used) }
        while true {
            let lineStart = lines.position
            guard let sizeLine = lines.next() else { return partial(bytes.endIndex - bytes.startIndex) }
            let digits = sizeLine.prefix { $0 != UInt8(ascii: ";") }.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
            guard !digits.isEmpty, digits.count <= 8, let size = Int(String(decoding: digits, as: UTF8.self), radix: 16) else {
                return (nil, lineStart - bytes.startIndex)
            }
            if size == 0 {
                while true {   // trailer-section CRLF
                    guard let trailer = lines.next() else { return partial(bytes.endIndex - bytes.startIndex) }
                    if trailer.isEmpty { break }
                }
                return (DecryptedHTTPBody(framing: .chunked, bytes: data, isComplete: true), lines.position - bytes.startIndex)
            }
            let start = lines.position
            let available = bytes.endIndex - start
            guard available >= size else {
                data.append(contentsOf: bytes[start...])
                return partial(bytes.endIndex - bytes.startIndex)
            }
            data.append(contentsOf: bytes[start..<(start + size)])
            var after = HTTP1Lines(bytes[(start + size)...], limit: 2)
            guard let empty = after.next() else {
                return after.exhausted ? partial(bytes.endIndex - bytes.startIndex) : (nil, start - bytes.startIndex)
            }
            guard empty.isEmpty else { return (nil, start - bytes.startIndex) }
            lines = HTTP1Lines(bytes, limit: bytes.count, at: after.position)
        }
    }
}
