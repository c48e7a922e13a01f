import Foundation
import Shared

/// How a body is shown: decoded from gzip, deflate or br first (bounded, `ContentDecoder`), then
/// JSON indented (`Content-Type: application/json` or `…+json`, whole and valid), other bytes as
/// text or a dump; a coding this reader does not know is named and its bytes left as sent.
package indirect enum DecryptedBodyPresentation: Sendable, Equatable {
    case none
    /// A `Content-Encoding` this reader cannot undo: named, the bytes kept as sent.
    case compressed(encoding: String)
    /// Indented, in the server's key order.
    case json(String)
    case bytes(DecryptedBytesRendering)
    /// Decoded from its content codings, then shown as `shown` says.
    case decoded(DecodedBody, shown: DecryptedBodyPresentation)

    package init(_ body: DecryptedHTTPBody, of message: DecryptedHTTPMessage) {
        let contentType = message.field("Content-Type")
        guard !body.bytes.isEmpty else {
            self = .none
            return
        }
        guard let encoding = message.field("Content-Encoding")?.trimmingCharacters(in: .whitespaces), !encoding.isEmpty else {
            self = Self.plain(body.bytes, whole: body.isComplete, contentType: contentType)
            return
        }
        switch ContentCoding.list(encoding) {
        case .failure:
            self = .compressed(encoding: encoding)
        case let .success(codings) where codings.isEmpty:   // identity
            self = Self.plain(body.bytes, whole: body.isComplete, contentType: contentType)
        case let .success(codings):
            let decoding = ContentDecoder.decode(body.bytes, codings: codings)
            let whole = body.isComplete && decoding.ending == .whole
            self = .decoded(DecodedBody(encoding: encoding, bytes: decoding.bytes, ending: decoding.ending),
                            shown: decoding.bytes.isEmpty ? .none : Self.plain(decoding.bytes, whole: whole, contentType: contentType))
        }
    }

    /// Bytes with no coding left: JSON indented when whole and valid, else text or a dump.
    static func plain(_ bytes: Data, whole: Bool, contentType: String?) -> DecryptedBodyPresentation {
        if whole, isJSON(contentType), let indented = HTTP1JSONIndent.indented(bytes) { return .json(indented) }
        return .bytes(DecryptedBytesRendering(bytes))
    }

    /// The bytes what is shown was drawn from: the decoded ones for a decoded body.
    func shownBytes(of body: DecryptedHTTPBody) -> Data {
        if case let .decoded(decoded, _) = self { return decoded.bytes }
        return body.bytes
    }

    /// What the presentation did to the bytes, as the body summary's tail.
    var summaryNote: String {
        switch self {
        case let .compressed(encoding):
            return ", compressed (\(encoding)): not decoded here (TunnelVision decodes "
                + ContentCoding.allCases.map(\.rawValue).joined(separator: ", ") + ")"
        case .json: return ", JSON, indented here"
        case .none, .bytes: return ""
        case let .decoded(decoded, shown):
            return ", \(decoded.encoding), decoded to \(FlowInspector.grouped(decoded.bytes.count)) bytes"
                + (decoded.endingNote.map { " — " + $0 } ?? "") + shown.summaryNote
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
    /// "77 bytes, gzip, decoded to 1 200 bytes, JSON, indented here", "77 bytes, compressed
    /// (zstd): not decoded here (TunnelVision decodes gzip, deflate and br)".
    package func summary(_ presentation: DecryptedBodyPresentation) -> String {
        let count = FlowInspector.grouped(bytes.count)
        var said: String
        switch (framing, bytes.isEmpty) {
        case (.none, _): return "no body"
        case (_, true) where isComplete: return "an empty body"
        case let (.length(declared), _) where !isComplete:
            said = "\(count) bytes" + (cutByBudget ? " kept" : "") + " of \(FlowInspector.grouped(declared)) — " + missing
        case (_, _) where !isComplete && carried != nil:
            said = "\(count) bytes kept of " + (carriedIsTotal ? "" : "at least ") + FlowInspector.grouped(carried ?? 0) + " — " + missing
        case (_, _) where !isComplete:
            said = "\(count) bytes" + (cutByBudget ? " kept" : "") + " — " + missing
        default:
            said = "\(count) bytes"
        }
        if case .chunked = framing { said += " (chunked, shown joined)" }
        said += presentation.summaryNote
        return said
    }
}

/// A body decoded from its content codings: the header's words for them, the decoded bytes and
/// how the decoding ended.
package struct DecodedBody: Sendable, Equatable {
    package let encoding: String
    package let bytes: Data
    package let ending: ContentDecoding.Ending

    /// Why the decoded bytes may not be all of it; nil when the coded stream ended whole.
    package var endingNote: String? {
        switch ending {
        case .whole: nil
        case .cut: bytes.isEmpty ? "the coded bytes stop before any of it could be decoded"
                                 : "the coded bytes stop early, so this is only its start"
        case let .stoppedAtLimit(limit):
            "decoding stopped at \(FlowInspector.grouped(limit)) bytes: it decodes to more (a decompression bomb, or simply large)"
        case let .malformed(reason): bytes.isEmpty ? "it could not be decoded: \(reason)"
                                                   : "it could not be decoded past this point: \(reason)"
        }
    }
}
