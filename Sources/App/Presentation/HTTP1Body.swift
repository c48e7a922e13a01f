import Foundation

/// A message's body as kept (RFC 9112 §6): its framing, the bytes (chunked bodies decoded), and
/// whether all of it was kept.
public struct HTTP1Body: Sendable, Equatable {
    /// How the message said its body ends (§6.3).
    public enum Framing: Sendable, Equatable {
        /// No body: a request without Content-Length or Transfer-Encoding; a response to HEAD; 1xx, 204, 304.
        case none
        case length(Int)
        case chunked
        /// A response with neither: its body is the rest of the connection.
        case untilClose
    }

    public let framing: Framing
    /// The body's bytes; for chunked, the chunks' data joined, without sizes or trailers.
    public let bytes: Data
    /// Every byte of the body was kept: the declared length reached, the last chunk seen, or the
    /// connection's end recorded. False when the budget cut it or the connection ended early.
    public let isComplete: Bool
    /// The budget for decrypted content ran out in this body's direction, in it or after it: what
    /// is missing was not kept. When false, an incomplete body is one the connection ended before
    /// its sender finished it — the budget is never blamed for bytes that were never sent.
    public let cutByBudget: Bool

    public init(framing: Framing, bytes: Data, isComplete: Bool, cutByBudget: Bool = false) {
        self.framing = framing
        self.bytes = bytes
        self.isComplete = isComplete
        self.cutByBudget = cutByBudget
    }

    public static let empty = HTTP1Body(framing: .none, bytes: Data(), isComplete: true)

    /// The same body when its direction's budget ran out in it or after it: a body that runs to
    /// the connection's close is then cut; one that reached its declared end stays whole.
    func cut() -> HTTP1Body {
        HTTP1Body(framing: framing, bytes: bytes, isComplete: isComplete && framing != .untilClose, cutByBudget: true)
    }

    /// §6.3's rules in order; nil when Content-Length is not one number.
    static func framing(isRequest: Bool, start: HTTP1Message.StartLine, fields: [HTTP1Field],
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

    /// The body at the front of `bytes` and how many bytes it took; nil when chunk framing is malformed.
    static func read(_ bytes: ArraySlice<UInt8>, framing: Framing) -> (HTTP1Body?, Int) {
        switch framing {
        case .none:
            return (empty, 0)
        case let .length(length):
            let kept = min(length, bytes.count)
            return (HTTP1Body(framing: framing, bytes: Data(bytes.prefix(kept)), isComplete: kept == length), kept)
        case .untilClose:
            return (HTTP1Body(framing: framing, bytes: Data(bytes), isComplete: true), bytes.count)
        case .chunked:
            return chunked(bytes)
        }
    }

    /// chunked-body = *chunk last-chunk trailer-section CRLF; chunk = chunk-size [ chunk-ext ] CRLF
    /// chunk-data CRLF (§7.1). Extensions and trailers are read past, not kept.
    static func chunked(_ bytes: ArraySlice<UInt8>) -> (HTTP1Body?, Int) {
        var data = Data()
        var lines = HTTP1Lines(bytes, limit: bytes.count)
        let partial = { (used: Int) in (HTTP1Body(framing: .chunked, bytes: data, isComplete: false), used) }
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
                return (HTTP1Body(framing: .chunked, bytes: data, isComplete: true), lines.position - bytes.startIndex)
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
