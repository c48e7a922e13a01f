import Foundation
import Shared

/// What the history gave of one flow's decrypted content.
package enum DecryptedContentReading: Sendable, Equatable {
    /// The flow's chunks in conversation order (none is a real answer), and whether keeping
    /// decrypted content is on now — it tells "switched off" from "expired" when none are kept.
    case read([DecryptedChunk], keepingIsOn: Bool)
    /// The history's plaintext index or files could not be read: the reason, as the reader said it.
    case failed(String)
}

/// The inspector's *Decrypted content* section (screens.md, Flow Inspector): the content of an
/// inspected connection, or the one sentence that says why there is none. Every sentence the
/// text, the JSON and so the web app show is here.
package struct DecryptedSection: Sendable, Equatable {
    /// Set when there is content: its turns and what protocol they read as.
    package let content: DecryptedContent?
    /// Set when there is no content to show: why, in words.
    package let note: String?

    /// Marks everything shown here: it was read only because the person set up inspection.
    package static let marking = "inspected with your local CA"
    /// ADR 0003: a limitation said as a guarantee, not an error — and only what is known: a
    /// refusal may be pinning, or a trust store the run did not reach.
    package static let pinnedGuarantee = "this app did not accept this run's certificate (it pins, or trusts a store this run did not "
        + "reach), or its server asks for the app's own; its content stays private"
    package static let notEncrypted = "not encrypted: there was nothing to decrypt (what it carried travelled in the clear)"
    package static let notInspected = "not inspected: its content stayed encrypted and was not decrypted"
    /// The command that turns keeping on, said wherever its being off is the reason nothing shows.
    static let keepCommand = SettingName.plaintextPersistence.command("on")
    package static let keepingOff = "inspected, but none of its decrypted content is kept: keeping decrypted content is off"
        + " ('\(keepCommand)' keeps it from the next run)"
    package static let expired = "inspected, but none of its decrypted content is kept any more: it expired or was deleted"
        + " (or keeping decrypted content was off while it ran)"
    static let brokenByInspection = "not read: the attempt to inspect it failed the connection"
    package static func unreadable(_ reason: String) -> String { "its decrypted content could not be read: \(reason)" }
    static let restNotKept = "the rest of this turn was not kept"

    /// Nil for an inspected flow whose content was not read: the section waits for it.
    init?(status: TLSInspectionStatus, reading: DecryptedContentReading?, connectionStart: Date, serverEnding: TLSStreamEnding? = nil) {
        switch (status, reading) {
        case (.plaintext, _): (content, note) = (nil, Self.notEncrypted)
        case (.encrypted, _): (content, note) = (nil, Self.notInspected)
        case (.notInspectable, _): (content, note) = (nil, Self.pinnedGuarantee)
        case let (.inspectionFailed, .read(chunks, _)?) where !chunks.isEmpty:
            (content, note) = (DecryptedContent(chunks, connectionStart: connectionStart, serverEnding: serverEnding), nil)
        case (.inspectionFailed, _): (content, note) = (nil, Self.brokenByInspection)
        case (.inspected, nil): return nil
        case let (.inspected, .failed(reason)?): (content, note) = (nil, Self.unreadable(reason))
        case let (.inspected, .read(chunks, keepingIsOn)?):
            if chunks.isEmpty {
                (content, note) = (nil, keepingIsOn ? Self.expired : Self.keepingOff)
            } else {
                (content, note) = (DecryptedContent(chunks, connectionStart: connectionStart, serverEnding: serverEnding), nil)
            }
        }
    }
}

/// An inspected connection's kept content: its turns and, when they read as one, its protocol.
package struct DecryptedContent: Sendable, Equatable {
    package let turns: DecryptedTurns
    package let application: DecryptedApplication
    /// The connection's first packet: turns are placed from it.
    package let connectionStart: Date
    /// How the real server ended the connection, when it did.
    package let serverEnding: TLSStreamEnding?

    package init(_ chunks: [DecryptedChunk], connectionStart: Date, serverEnding: TLSStreamEnding? = nil) {
        turns = DecryptedTurns(chunks)
        application = DecryptedApplication(turns)
        self.connectionStart = connectionStart
        self.serverEnding = serverEnding
    }

    /// What an unclean end by the server means for what was received, nil for a clean one: the
    /// server's doing, never the budget's — the budget's cuts are said where they are.
    /// The words for how it ended are `FlowInspector.ending`'s, as `flow ID` says them. Nil too
    /// when everything received reads as whole responses (`receivedIsWhole`): a keep-alive
    /// connection the server dropped after answering in full cut nothing the app was owed.
    package var endingNote: String? {
        guard let serverEnding, serverEnding != .closeNotify, !receivedIsWhole else { return nil }
        return "the server ended the connection \(FlowInspector.ending(serverEnding)) — a cut made by the server, "
            + "not by what TunnelVision keeps"
    }

    /// Whether what was received reads as responses to every request, each body complete by its
    /// own framing (an HTTP/1.1 body read until the close is never known to be whole; an HTTP/2
    /// one is whole at END_STREAM).
    var receivedIsWhole: Bool {
        switch application {
        case let .http1(conversation):
            guard !conversation.switchedProtocols, conversation.unreadReceivedBytes == 0 else { return false }
        case let .http2(conversation):
            guard conversation.notes.isEmpty else { return false }
        case .unrecognized:
            return false
        }
        // A conversation always has a request (`HTTP1Conversation`); none would be nothing whole.
        guard let exchanges = application.exchanges, !exchanges.isEmpty else { return false }
        return exchanges.allSatisfy { exchange in
            guard let response = exchange.response else { return false }
            return response.body.isComplete && response.body.framing != .untilClose
        }
    }

    /// Why an exchange has no request: its head was cut by the budget for what was sent.
    static let requestNotKept = "not kept (the budget for what was sent ran out before it)"

    /// Why an exchange has no request: HTTP/1.1's head was cut by the budget; an HTTP/2 stream's
    /// headers were cut, or could not be decoded (said in the notes).
    package var requestMissing: String {
        guard case .http2 = application else { return Self.requestNotKept }
        return turns.isCut(.outbound) ? Self.requestNotKept : "its headers could not be read (see the notes below)"
    }

    /// Why an exchange has no response: the budget for what was received ran out, or none came
    /// before the connection ended — never blamed on the budget when it did not run out.
    package var responseMissing: String {
        turns.isCut(.inbound) ? "not kept (the budget for what was received ran out before it)"
                              : "none arrived before the connection ended"
    }

    /// What the turn's header says: "sent, 0.012 s into the connection, 78 bytes" or with a cut
    /// "received, …, 65 536 bytes kept of 120 000 — the rest of this turn was not kept".
    package func heading(_ turn: DecryptedTurn) -> String {
        let kept = FlowInspector.grouped(turn.storedLength)
        let size = turn.isTruncated ? "\(kept) bytes kept of \(FlowInspector.grouped(turn.originalLength)) — \(DecryptedSection.restNotKept)"
                                    : "\(kept) bytes"
        return "\(FlowInspector.directionWord(turn.direction)), \(FlowInspector.seconds(offset(turn))) into the connection, \(size)"
    }

    package func offset(_ turn: DecryptedTurn) -> TimeInterval { turn.timestamp.timeIntervalSince(connectionStart) }

    /// One line about the protocol, nil when none was recognized.
    package var protocolLine: String? {
        switch application {
        case let .http1(conversation):
            let requests = conversation.exchanges.filter { $0.request != nil }.count
            let http = "HTTP/1.1: \(requests) request\(requests == 1 ? "" : "s") on this connection, each with its response"
            guard let webSocket = conversation.webSocket else { return http }
            let count = webSocket.entries.count
            return http + ", then WebSocket: \(FlowInspector.grouped(count)) message\(count == 1 ? "" : "s")"
        case let .http2(conversation):
            let streams = conversation.exchanges.count
            let pushed = conversation.exchanges.filter { $0.promisedBy != nil }.count
            return "HTTP/2: \(streams) stream\(streams == 1 ? "" : "s") on this connection, each a request and its response"
                + (pushed > 0 ? " (\(pushed) pushed by the server)" : "")
        case .unrecognized:
            return nil
        }
    }

    /// The WebSocket messages after an upgrade, nil when there was none.
    package var webSocket: WebSocketConversation? {
        if case let .http1(conversation) = application { conversation.webSocket } else { nil }
    }

    /// What the HTTP reading could not place, in words.
    package var httpNotes: [String] {
        if case let .http2(conversation) = application { return conversation.notes }
        guard case let .http1(conversation) = application else { return [] }
        var notes: [String] = []
        if conversation.unreadSentBytes > 0 {
            notes.append("the last \(FlowInspector.grouped(conversation.unreadSentBytes)) bytes sent are the start of a request whose head did not come whole")
        }
        for (bytes, what) in [(conversation.notKeptBetweenSent, "sent"), (conversation.notKeptBetweenReceived, "received")] where bytes > 0 {
            notes.append("\(FlowInspector.grouped(bytes)) bytes \(what) outside the messages shown were not kept: "
                + "the budget keeps each turn's first \(FlowInspector.grouped(PlaintextBudget.Limits.standard.bytesPerTurn)) bytes")
        }
        if let webSocket = conversation.webSocket {
            notes += webSocket.notes
        } else if conversation.switchedProtocols {
            notes.append("after 101 Switching Protocols the connection spoke another protocol: its bytes are in the turns")
        } else if conversation.unreadReceivedBytes > 0 {
            notes.append("the last \(FlowInspector.grouped(conversation.unreadReceivedBytes)) bytes received are the start of a response whose head did not come whole")
        }
        return notes
    }
}

extension FlowInspector {
    /// The *Decrypted content* section; nil for an inspected flow whose content was not read.
    package var decryptedSection: DecryptedSection? {
        DecryptedSection(status: flow.stored.tlsStatus, reading: decrypted, connectionStart: flow.stored.firstSeen,
                         serverEnding: flow.stored.serverEnding)
    }
}
