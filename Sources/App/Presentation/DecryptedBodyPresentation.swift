import Foundation

/// How a body is shown: JSON indented (`Content-Type: application/json` or `…+json`, whole and
/// valid), compressed bodies said and not decoded, other bytes as text or a dump.
public enum DecryptedBodyPresentation: Sendable, Equatable {
    case none
    /// `Content-Encoding` other than identity: named, with the bytes kept, not decoded.
    case compressed(encoding: String)
    /// Indented, in the server's key order.
    case json(String)
    case bytes(DecryptedBytesRendering)

    public init(_ body: DecryptedHTTPBody, of message: DecryptedHTTPMessage) {
        if body.bytes.isEmpty {
            self = .none
        } else if let encoding = message.field("Content-Encoding")?.trimmingCharacters(in: .whitespaces),
                  !encoding.isEmpty, encoding.lowercased() != "identity" {
            self = .compressed(encoding: encoding)
        } else if body.isComplete, Self.isJSON(message.field("Content-Type")), let indented = HTTP1JSONIndent.indented(body.bytes) {
            self = .json(indented)
        } else {
            self = .bytes(DecryptedBytesRendering(body.bytes))
        }
    }

    /// RFC 8259 §11's media type, or a structured syntax suffix `+json` (RFC 6839 §3.1).
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let media = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return media == "application/json" || (media.hasSuffix("+json") && media.contains("/"))
    }
}

extension DecryptedHTTPBody {
    /// What became of the bytes an incomplete body lacks.
    var missing: String { cutByBudget ? "the rest was not kept" : "the connection ended before the rest was sent" }

    /// One line about the body: "no body", "42 bytes", "1 200 bytes kept of 5 000 — the rest was
    /// not kept", "40 000 bytes of 100 000 — the connection ended before the rest was sent",
    /// "77 bytes, compressed (gzip): not decoded here".
    public func summary(_ presentation: DecryptedBodyPresentation) -> String {
        let count = FlowInspector.grouped(bytes.count)
        var said: String
        switch (framing, bytes.isEmpty) {
        case (.none, _): return "no body"
        case (_, true) where isComplete: return "an empty body"
        case let (.length(declared), _) where !isComplete:
            said = "\(count) bytes" + (cutByBudget ? " kept" : "") + " of \(FlowInspector.grouped(declared)) — " + missing
        case (_, _) where !isComplete:
            said = "\(count) bytes" + (cutByBudget ? " kept" : "") + " — " + missing
        default:
            said = "\(count) bytes"
        }
        if case .chunked = framing { said += " (chunked, shown joined)" }
        switch presentation {
        case let .compressed(encoding): said += ", compressed (\(encoding)): not decoded here"
        case .json: said += ", JSON, indented here"
        case .none, .bytes: break
        }
        return said
    }
}
