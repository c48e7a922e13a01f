import Foundation
import Shared

/// The WebSocket messages (RFC 6455) of a connection upgraded from HTTP/1.1, both directions in
/// the order they were seen: each direction read frame by frame into messages, permessage-deflate
/// (RFC 7692) inflated when the server agreed to it, and the two merged by when each message's
/// first byte arrived.
package struct WebSocketConversation: Sendable, Equatable {
    package struct Entry: Sendable, Equatable {
        package let direction: Direction
        /// When the turn holding the message's first byte was seen.
        package let at: Date?
        package let message: WebSocketMessage
    }

    package let entries: [Entry]
    /// What could not be read, in words.
    package let notes: [String]

    /// `client` and `server` are each direction's bytes after the upgrade, starting at those
    /// offsets of the direction's kept stream; `extensions` is the 101's Sec-WebSocket-Extensions.
    init(client: [UInt8], clientStart: Int, server: [UInt8], serverStart: Int, extensions: String?, turns: DecryptedTurns) {
        let deflate = Self.deflate(extensions)
        let sent = WebSocketStream(client, compressed: deflate != nil, contextTakeover: deflate?.clientTakeover ?? true)
        let received = WebSocketStream(server, compressed: deflate != nil, contextTakeover: deflate?.serverTakeover ?? true)
        let entry = { (direction: Direction, start: Int, message: WebSocketMessage) in
            Entry(direction: direction, at: turns.timestamp(ofByte: start + message.offset, in: direction), message: message)
        }
        // Stable: in each direction the order sent; across them, the time each was seen.
        entries = (sent.messages.map { entry(.outbound, clientStart, $0) } + received.messages.map { entry(.inbound, serverStart, $0) })
            .enumerated().sorted { ($0.element.at ?? .distantFuture, $0.offset) < ($1.element.at ?? .distantFuture, $1.offset) }
            .map(\.element)
        var notes: [String] = []
        for (stream, side) in [(sent, "sent"), (received, "received")] {
            if let problem = stream.problem { notes.append("the \(side) frames hold \(problem)") }
            if stream.unreadBytes > 0 {
                notes.append("the last \(FlowInspector.grouped(stream.unreadBytes)) bytes \(side) begin a frame that was not kept whole")
            }
        }
        self.notes = notes
    }

    /// permessage-deflate as the server accepted it (RFC 7692 §7.1), nil when it did not.
    static func deflate(_ extensions: String?) -> (clientTakeover: Bool, serverTakeover: Bool)? {
        guard let extensions else { return nil }
        for offer in extensions.split(separator: ",") {
            let parameters = offer.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard parameters.first == "permessage-deflate" else { continue }
            return (!parameters.contains("client_no_context_takeover"), !parameters.contains("server_no_context_takeover"))
        }
        return nil
    }

    /// "sent, text, 5 bytes", "received, close 1000 (normal closure): bye", "sent, binary, 70 000
    /// bytes in 3 frames, inflated from 1 200", "received, text, 10 bytes — its final fragment was not kept".
    package static func heading(_ entry: Entry) -> String {
        let message = entry.message
        var said = "\(FlowInspector.directionWord(entry.direction)), \(kindWord(message.kind))"
        if let code = message.closeCode {
            said += " \(code) (\(closeMeaning(code)))" + (message.closeReason.isEmpty ? "" : ": \(message.closeReason)")
            return said
        }
        if message.kind == .close { return said + " with no status code" }
        said += ", \(FlowInspector.grouped(message.payload.count)) bytes"
        if message.frames > 1 { said += " in \(FlowInspector.grouped(message.frames)) frames" }
        if let inflating = message.inflating {
            said += ", inflated (permessage-deflate)"
            said += DecodedBody(encoding: "permessage-deflate", bytes: message.payload, ending: inflating).endingNote.map { " — " + $0 } ?? ""
        }
        if !message.complete { said += " — its final fragment was not kept" }
        return said
    }

    static func kindWord(_ kind: WebSocketMessage.Kind) -> String {
        switch kind {
        case .text: "text"
        case .binary: "binary"
        case .close: "close"
        case .ping: "ping"
        case .pong: "pong"
        case let .reserved(opcode): "reserved opcode 0x" + String(opcode, radix: 16)
        }
    }

    /// RFC 6455 §7.4.1's status codes, in words.
    static func closeMeaning(_ code: UInt16) -> String {
        switch code {
        case 1000: "normal closure"
        case 1001: "going away"
        case 1002: "protocol error"
        case 1003: "data it cannot accept"
        case 1007: "data not consistent with its type"
        case 1008: "policy violation"
        case 1009: "message too big"
        case 1010: "an extension the client needs"
        case 1011: "unexpected condition"
        case 3000..<4000: "registered for libraries and frameworks"
        case 4000..<5000: "private to the application"
        default: "not defined by RFC 6455"
        }
    }

    /// How a message's payload reads: text or a dump; control frames' bytes too.
    package static func rendering(_ message: WebSocketMessage) -> DecryptedBytesRendering? {
        if message.kind == .close || message.payload.isEmpty { return nil }
        return DecryptedBytesRendering(message.payload)
    }
}
