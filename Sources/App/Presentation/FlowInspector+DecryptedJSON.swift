import Foundation
import Shared

extension FlowInspector {
    /// `"decryptedNote"` (why there is no content, or null) and, for an inspected flow whose
    /// content was read, `"decrypted"` — absent otherwise (`tunnelvision help flow` lists the fields).
    func writeDecryptedJSON(to out: inout JSONWriter) {
        let section = decryptedSection
        out.string("decryptedNote", section?.note)
        guard flow.stored.tlsStatus == .inspected, decrypted?.isRead == true, let section else { return }
        out.beginObject("decrypted")
        out.string("marking", DecryptedSection.marking)
        out.string("protocol", section.content?.application.name)
        out.string("protocolNote", section.content?.protocolLine)
        out.string("endingNote", section.content?.endingNote)
        out.beginArray("turns")
        if let content = section.content {
            for turn in content.turns.turns { Self.write(turn, in: content, to: &out) }
        }
        out.endArray()
        if let content = section.content, let exchanges = content.application.exchanges {
            out.beginArray("http")
            for exchange in exchanges {
                out.beginObject()
                out.number("stream", exchange.stream.map(Int.init))
                out.number("promisedBy", exchange.promisedBy.map(Int.init))
                out.key("request")
                if let request = exchange.request { Self.write(request, to: &out) } else { out.null() }
                out.string("requestMissing", exchange.request == nil ? content.requestMissing : nil)
                out.beginArray("interim")
                for interim in exchange.interim { Self.write(interim, to: &out) }
                out.endArray()
                out.key("response")
                if let response = exchange.response { Self.write(response, to: &out) } else { out.null() }
                out.string("responseMissing", exchange.response == nil ? content.responseMissing : nil)
                out.strings("notes", exchange.notes)
                out.endObject()
            }
            out.endArray()
            out.strings("httpNotes", content.httpNotes)
        }
        if let webSocket = section.content?.webSocket, let content = section.content {
            out.beginObject("webSocket")
            out.beginArray("messages")
            for entry in webSocket.entries { Self.write(entry, in: content, to: &out) }
            out.endArray()
            out.endObject()
        }
        out.endObject()
    }

    static func write(_ turn: DecryptedTurn, in content: DecryptedContent, to out: inout JSONWriter) {
        out.beginObject()
        out.string("direction", directionWord(turn.direction))
        out.string("at", UTCTimestamp.iso8601(turn.timestamp))
        out.number("seconds", content.offset(turn), decimals: 3)
        out.string("heading", content.heading(turn))
        out.number("storedBytes", turn.storedLength)
        out.number("originalBytes", turn.originalLength)
        out.bool("truncated", turn.isTruncated)
        out.string("note", turn.isTruncated ? DecryptedSection.restNotKept : nil)
        write(turn.rendering, bytes: turn.bytes, to: &out)
        out.endObject()
    }

    /// `"text"`, or `"hex"` (every byte) with `"dump"` (the lines a screen draws) and `"bytesNotDrawn"`.
    static func write(_ rendering: DecryptedBytesRendering, bytes: Data, to out: inout JSONWriter) {
        switch rendering {
        case let .text(text):
            out.string("text", text)
        case .dump:
            out.string("hex", PacketBytesPresentation.hex([UInt8](bytes)))
            out.strings("dump", PacketBytesPresentation.dump(bytes.prefix(PacketBytesPresentation.screenByteLimit)))
            out.size("bytesNotDrawn", UInt64(max(0, bytes.count - PacketBytesPresentation.screenByteLimit)))
        }
    }

    static func write(_ message: DecryptedHTTPMessage, to out: inout JSONWriter) {
        out.beginObject()
        out.string("startLine", message.startLine)
        switch message.start {
        case let .request(method, target, version):
            out.string("method", method)
            out.string("target", target)
            out.string("version", version)
        case let .response(version, status, reason):
            out.string("version", version)
            out.number("status", status)
            out.string("reason", reason)
        }
        write(message.fields, as: "headers", to: &out)
        write(message.trailers, as: "trailers", to: &out)
        let body = message.body
        let presentation = DecryptedBodyPresentation(body, of: message)
        out.beginObject("body")
        out.string("framing", Self.framingName(body.framing))
        out.number("storedBytes", body.bytes.count)
        if case let .length(declared) = body.framing { out.number("declaredBytes", declared) } else { out.number("declaredBytes", nil) }
        out.bool("complete", body.isComplete)
        out.string("summary", body.summary(presentation))
        write(presentation, bytes: body.bytes, to: &out)
        out.endObject()
        out.endObject()
    }

    /// `"kind"` and what it shows: `"text"`, `"hex"`…; for a decoded body first its `"encoding"`,
    /// `"decodedBytes"`, `"decoding"` (whole|cut|stoppedAtLimit|malformed) and `"decodingNote"`.
    static func write(_ presentation: DecryptedBodyPresentation, bytes: Data, to out: inout JSONWriter) {
        switch presentation {
        case .none:
            out.string("kind", "none")
        case let .compressed(encoding):
            out.string("kind", "compressed")
            out.string("encoding", encoding)
        case let .json(text):
            out.string("kind", "json")
            out.string("text", text)
        case let .bytes(rendering):
            if case .text = rendering { out.string("kind", "text") } else { out.string("kind", "binary") }
            write(rendering, bytes: bytes, to: &out)
        case let .decoded(decoded, shown):
            out.string("encoding", decoded.encoding)
            out.number("decodedBytes", decoded.bytes.count)
            out.string("decoding", decodingName(decoded.ending))
            out.string("decodingNote", decoded.endingNote)
            write(shown, bytes: decoded.bytes, to: &out)
        }
    }

    static func decodingName(_ ending: ContentDecoding.Ending) -> String {
        switch ending {
        case .whole: "whole"
        case .cut: "cut"
        case .stoppedAtLimit: "stoppedAtLimit"
        case .malformed: "malformed"
        }
    }

    /// One WebSocket message: `"direction"`, `"at"`, `"seconds"`, `"kind"`, `"heading"`, `"bytes"`,
    /// `"frames"`, `"complete"`, `"closeCode"`, `"closeReason"`, then its payload as a turn's.
    static func write(_ entry: WebSocketConversation.Entry, in content: DecryptedContent, to out: inout JSONWriter) {
        let message = entry.message
        out.beginObject()
        out.string("direction", directionWord(entry.direction))
        out.string("at", entry.at.map(UTCTimestamp.iso8601))
        if let at = entry.at { out.number("seconds", at.timeIntervalSince(content.connectionStart), decimals: 3) } else { out.number("seconds", nil) }
        out.string("kind", WebSocketConversation.kindWord(message.kind))
        out.string("heading", WebSocketConversation.heading(entry))
        out.number("bytes", message.payload.count)
        out.number("frames", message.frames)
        out.bool("complete", message.complete)
        out.number("closeCode", message.closeCode.map(Int.init))
        out.string("closeReason", message.kind == .close ? message.closeReason : nil)
        if let rendering = WebSocketConversation.rendering(message) { write(rendering, bytes: message.payload, to: &out) }
        out.endObject()
    }

    /// Fields as `[[name, value], …]`.
    static func write(_ fields: [HTTPField], as key: StaticString, to out: inout JSONWriter) {
        out.beginArray(key)
        for field in fields {
            out.beginArray()
            out.element(field.name)
            out.element(field.value)
            out.endArray()
        }
        out.endArray()
    }

    static func framingName(_ framing: DecryptedHTTPBody.Framing) -> String {
        switch framing {
        case .none: "none"
        case .length: "length"
        case .chunked: "chunked"
        case .untilClose: "untilClose"
        case .frames: "frames"
        }
    }
}

extension DecryptedContentReading {
    var isRead: Bool { if case .read = self { true } else { false } }
}
