import Foundation
import Shared

/// The HTTP/1.1 requests and responses of one connection, read from each direction as kept
/// (`HTTP1MessageReader`: gaps the budget left are passed over by the messages' own lengths). Nil
/// unless the sent bytes begin with a whole request head and everything kept reads as messages (a
/// cut at the end is fine: it is said).
package struct HTTP1Conversation: Sendable, Equatable {
    package let exchanges: [DecryptedHTTPExchange]
    /// Bytes kept after the last message that could be read: a head the connection's end cut.
    package let unreadSentBytes: Int
    package let unreadReceivedBytes: Int
    /// Bytes between messages that could not be read: heads the budget cut, and what followed.
    package let notKeptBetweenSent: Int
    package let notKeptBetweenReceived: Int
    /// After a 101 Switching Protocols the connection spoke another protocol (RFC 9110 §15.2.2).
    package let switchedProtocols: Bool
    /// That protocol read as WebSocket (RFC 6455), when the upgrade asked for it.
    package let webSocket: WebSocketConversation?

    /// Bounds the work on a keep-alive connection's kept bytes.
    static let maxMessages = 1000

    package init?(_ turns: DecryptedTurns) {
        let sentStream = turns.kept(.outbound)
        guard case let .read(requests, unreadSent, afterUpgrade, notKeptSent) = Self.requests(sentStream),
              !requests.isEmpty else { return nil }
        var exchanges: [DecryptedHTTPExchange] = []
        var reader = HTTP1MessageReader(turns.kept(.inbound))
        var interim: [DecryptedHTTPMessage] = []
        var switched = false
        var unreadReceived = 0
        reading: while !switched, exchanges.count + interim.count < Self.maxMessages {
            let request = exchanges.count < requests.count ? requests[exchanges.count] : nil
            switch reader.next(isRequest: false, requestMethod: request?.method) {
            case .end:
                break reading
            case .notHTTP:
                return nil
            case let .headCut(unread):
                unreadReceived = unread
                break reading
            case let .message(response):
                // An answer to nothing read is an answer to a request that was not kept, or none.
                guard request != nil || unreadSent > 0 || notKeptSent > 0 else { return nil }
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
        if afterUpgrade != nil && !switched { return nil }
        let upgrade = switched ? exchanges.last : nil
        if let upgrade, let clientStart = afterUpgrade,
           upgrade.request?.field("Upgrade")?.lowercased().contains("websocket") == true {
            // Each side's frames are read from the kept bytes up to the first gap after the upgrade.
            webSocket = WebSocketConversation(client: Array(sentStream.run(from: clientStart)), clientStart: clientStart,
                                              server: Array(reader.run), serverStart: reader.offset,
                                              extensions: upgrade.response?.field("Sec-WebSocket-Extensions"), turns: turns)
            unreadReceived = 0
        } else {
            webSocket = nil
            if switched { unreadReceived = reader.run.count }
        }
        self.exchanges = exchanges
        unreadSentBytes = switched ? 0 : unreadSent
        unreadReceivedBytes = unreadReceived
        notKeptBetweenSent = notKeptSent
        notKeptBetweenReceived = reader.notKeptBetween
        switchedProtocols = switched
    }

    /// The requests read, the kept bytes left unread at the end, where the bytes after a request
    /// that asked to upgrade begin when they are not HTTP (the new protocol's, if the server
    /// agreed), and the bytes passed over between requests.
    enum Requests { case read([DecryptedHTTPMessage], unread: Int, afterUpgrade: Int?, notKept: Int), notHTTP }

    static func requests(_ stream: KeptStream) -> Requests {
        var reader = HTTP1MessageReader(stream)
        var requests: [DecryptedHTTPMessage] = []
        while requests.count < maxMessages {
            if requests.last?.field("Upgrade") != nil, !reader.atEnd,
               !HTTP1Reader.head(reader.run, isRequest: true, requestMethod: nil).isHead {
                // After a request that asked to upgrade, bytes that are not a message are the
                // new protocol's (a WebSocket frame rarely holds a line's end: it reads as cut).
                return .read(requests, unread: reader.run.count, afterUpgrade: reader.offset, notKept: reader.notKeptBetween)
            }
            switch reader.next(isRequest: true, requestMethod: nil) {
            case .end: return .read(requests, unread: 0, afterUpgrade: nil, notKept: reader.notKeptBetween)
            case .notHTTP: return .notHTTP
            case let .headCut(unread): return .read(requests, unread: unread, afterUpgrade: nil, notKept: reader.notKeptBetween)
            case let .message(message): requests.append(message)
            }
        }
        return .read(requests, unread: reader.run.count, afterUpgrade: nil, notKept: reader.notKeptBetween)
    }
}
