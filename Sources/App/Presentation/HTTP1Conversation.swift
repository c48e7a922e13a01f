import Foundation
import Shared

/// The HTTP/1.1 requests and responses of one connection, read from each direction's kept
/// stream. Nil unless the sent bytes begin with a whole request head and everything kept reads
/// as messages (a cut at the end is fine: it is said).
public struct HTTP1Conversation: Sendable, Equatable {
    public let exchanges: [DecryptedHTTPExchange]
    /// Bytes kept after the last message that could be read: a head the cut left incomplete.
    public let unreadSentBytes: Int
    public let unreadReceivedBytes: Int
    /// After a 101 Switching Protocols the connection spoke another protocol (RFC 9110 §15.2.2).
    public let switchedProtocols: Bool
    /// That protocol read as WebSocket (RFC 6455), when the upgrade asked for it.
    public let webSocket: WebSocketConversation?

    /// Bounds the work on a keep-alive connection's kept bytes.
    static let maxMessages = 1000

    public init?(_ turns: DecryptedTurns) {
        let sent = [UInt8](turns.stream(.outbound)), received = [UInt8](turns.stream(.inbound))
        guard case let .read(requests, unreadSent, sentAfterUpgrade) = Self.messages(sent, cut: turns.isCut(.outbound),
                                                                                      read: HTTP1Reader.request),
              !requests.isEmpty else { return nil }
        var exchanges: [DecryptedHTTPExchange] = []
        var position = received.startIndex
        var interim: [DecryptedHTTPMessage] = []
        var switched = false
        var unreadReceived = 0
        let receivedCut = turns.isCut(.inbound)
        while position < received.endIndex, !switched, exchanges.count + interim.count < Self.maxMessages {
            let request = exchanges.count < requests.count ? requests[exchanges.count] : nil
            guard request != nil || unreadSent > 0 || turns.isCut(.outbound) else { return nil }   // an answer to nothing
            switch HTTP1Reader.response(received[position...], requestMethod: request?.method) {
            case .notHTTP:
                return nil
            case .headCut:
                unreadReceived = received.endIndex - position
                position = received.endIndex
            case let .message(message, consumed):
                position += consumed
                let last = position == received.endIndex
                let response = last && receivedCut ? message.withBodyCut() : message
                if response.status == 101 {
                    // The upgrade's answer: the last HTTP/1.1 message on the connection.
                    exchanges.append(DecryptedHTTPExchange(request: request, interim: interim, response: response))
                    interim = []
                    switched = true
                } else if let status = response.status, (100..<200).contains(status) {
                    interim.append(response)
                } else {
                    exchanges.append(DecryptedHTTPExchange(request: request, interim: interim, response: response))
                    interim = []
                }
            }
        }
        while exchanges.count < requests.count {
            exchanges.append(DecryptedHTTPExchange(request: requests[exchanges.count], interim: interim, response: nil))
            interim = []
        }
        if !interim.isEmpty { exchanges.append(DecryptedHTTPExchange(request: nil, interim: interim, response: nil)) }
        // Bytes after an upgrade request that are not HTTP are the new protocol's only if the
        // server agreed to switch.
        if sentAfterUpgrade > 0 && !switched { return nil }
        let upgrade = switched ? exchanges.last : nil
        if let upgrade, upgrade.request?.field("Upgrade")?.lowercased().contains("websocket") == true {
            let clientStart = sent.count - sentAfterUpgrade
            webSocket = WebSocketConversation(client: Array(sent[clientStart...]), clientStart: clientStart,
                                              server: Array(received[position...]), serverStart: position,
                                              extensions: upgrade.response?.field("Sec-WebSocket-Extensions"), turns: turns)
            unreadReceived = 0
        } else {
            webSocket = nil
            if switched { unreadReceived = received.endIndex - position }
        }
        self.exchanges = exchanges
        unreadSentBytes = switched ? 0 : unreadSent
        unreadReceivedBytes = unreadReceived
        switchedProtocols = switched
    }

    /// The messages read, the bytes left unread at the end, and of those how many follow a
    /// request that asked to upgrade and are not HTTP (the new protocol's, if the server agreed).
    enum Messages { case read([DecryptedHTTPMessage], unread: Int, afterUpgrade: Int), notHTTP }

    /// Every message of one direction's stream; the last one's body marked cut when `cut`.
    static func messages(_ bytes: [UInt8], cut: Bool, read: (ArraySlice<UInt8>) -> HTTP1ReadOutcome) -> Messages {
        var messages: [DecryptedHTTPMessage] = []
        var position = bytes.startIndex
        while position < bytes.endIndex, messages.count < maxMessages {
            switch read(bytes[position...]) {
            case let outcome where messages.last?.field("Upgrade") != nil && outcome.isNotMessage:
                // After a request that asked to upgrade, bytes that are not a message are the
                // new protocol's (a WebSocket frame rarely holds a line's end: it reads as cut).
                return .read(messages, unread: bytes.endIndex - position, afterUpgrade: bytes.endIndex - position)
            case .notHTTP: return .notHTTP
            case .headCut: return .read(messages, unread: bytes.endIndex - position, afterUpgrade: 0)
            case let .message(message, consumed):
                position += consumed
                messages.append(position == bytes.endIndex && cut ? message.withBodyCut() : message)
            }
        }
        return .read(messages, unread: bytes.endIndex - position, afterUpgrade: 0)
    }
}

extension HTTP1ReadOutcome {
    var isNotMessage: Bool { if case .message = self { false } else { true } }
}

extension DecryptedHTTPMessage {
    /// This message with its body known to be cut: its direction's budget ran out in it.
    func withBodyCut() -> DecryptedHTTPMessage { DecryptedHTTPMessage(start: start, fields: fields, body: body.cut()) }
}
