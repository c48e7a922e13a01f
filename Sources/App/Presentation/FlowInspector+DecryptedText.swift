import Foundation

extension FlowInspector {
    /// The *Decrypted content* section as `tunnelvision flow ID` prints it: for HTTP/1.1 and HTTP/2 each
    /// request and its response, bodies as text, indented JSON or a dump; otherwise the turns.
    /// Empty when the section waits for content that was not read.
    func decryptedLines() -> [String] {
        guard let section = decryptedSection else { return [] }
        guard let content = section.content else {
            return ["", "  Decrypted content: \(section.note ?? "")"]
        }
        var lines = ["", "  Decrypted content (\(DecryptedSection.marking)):"]
        if let line = content.protocolLine { lines.append("    " + line) }
        if let exchanges = content.application.exchanges {
            for (number, exchange) in exchanges.enumerated() {
                lines.append("")
                let stream = exchange.stream.map { " (stream \($0))" } ?? ""
                if let request = exchange.request {
                    lines += Self.messageLines("Request \(number + 1)\(stream)", request)
                } else {
                    lines.append("    Request \(number + 1)\(stream): \(content.requestMissing)")
                }
                for interim in exchange.interim { lines += Self.messageLines("Interim answer", interim) }
                if let response = exchange.response {
                    lines += Self.messageLines("Response \(number + 1)", response)
                } else {
                    lines.append("    Response \(number + 1): \(content.responseMissing)")
                }
                lines += exchange.notes.map { "    (\($0))" }
            }
            if let webSocket = content.webSocket {
                for (number, entry) in webSocket.entries.enumerated() {
                    lines += ["", "    WebSocket message \(number + 1): \(WebSocketConversation.heading(entry))"]
                    if let rendering = WebSocketConversation.rendering(entry.message) {
                        lines += Self.rendered(rendering, bytes: entry.message.payload.count).map { "      " + $0 }
                    }
                }
            }
            lines += content.httpNotes.map { "    (\($0))" }
        } else {
            for (number, turn) in content.turns.turns.enumerated() {
                lines.append("")
                lines.append("    Turn \(number + 1): \(content.heading(turn))")
                lines += Self.rendered(turn.rendering, bytes: turn.storedLength).map { "      " + $0 }
            }
        }
        if let note = content.endingNote { lines += ["", "    (\(note))"] }
        return lines
    }

    static func messageLines(_ title: String, _ message: DecryptedHTTPMessage) -> [String] {
        var lines = ["    \(title): \(message.startLine)"]
        lines += message.fields.map { "      \($0.name): \($0.value)" }
        let presentation = DecryptedBodyPresentation(message.body, of: message)
        lines.append("      (\(message.body.summary(presentation)))")
        lines += bodyLines(presentation, bytes: message.body.bytes.count).map { "        " + $0 }
        if !message.trailers.isEmpty {
            lines.append("      Trailers:")
            lines += message.trailers.map { "        \($0.name): \($0.value)" }
        }
        return lines
    }

    /// A body's lines as shown: JSON indented, text, a dump; for a decoded body, the decoded bytes.
    static func bodyLines(_ presentation: DecryptedBodyPresentation, bytes: Int) -> [String] {
        switch presentation {
        case .none, .compressed: []
        case let .json(text): text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        case let .bytes(rendering): rendered(rendering, bytes: bytes)
        case let .decoded(decoded, shown): bodyLines(shown, bytes: decoded.bytes.count)
        }
    }

    /// Text line by line; a dump of the first `PacketBytesPresentation.screenByteLimit` bytes and
    /// how many more `--json` carries.
    static func rendered(_ rendering: DecryptedBytesRendering, bytes: Int) -> [String] {
        switch rendering {
        case let .text(text):
            return text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        case let .dump(lines):
            let shown = Array(lines.prefix(PacketBytesPresentation.screenByteLimit / PacketBytesPresentation.bytesPerLine))
            let more = bytes - PacketBytesPresentation.screenByteLimit
            return more > 0 ? shown + ["(\(grouped(more)) more bytes not drawn here; --json carries them all)"] : shown
        }
    }
}
