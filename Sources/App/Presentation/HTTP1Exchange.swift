import Foundation
import Shared

/// One request and the response that answered it, paired in order on a keep-alive connection
/// (RFC 9112 §9.3: responses come in the order of the requests). Either side may be missing: a
/// request whose response was not kept, a response whose request the budget cut.
public struct HTTP1Exchange: Sendable, Equatable {
    public let request: HTTP1Message?
    /// 1xx answers before the final one (100 Continue, 103 Early Hints), in order.
    public let interim: [HTTP1Message]
    public let response: HTTP1Message?
}

/// What the application protocol of an inspected connection's kept bytes is, as far as a
/// reader can tell without guessing: HTTP/1.1 read message by message, HTTP/2 named by its
/// preface (RFC 9113 §3.4) and shown as turns (no HPACK here), or neither — then the turns
/// alone. Never an error: what does not parse is simply shown as it was.
public enum DecryptedApplication: Sendable, Equatable {
    case http1(HTTP1Conversation)
    case http2
    case unrecognized

    /// RFC 9113 §3.4: the client connection preface.
    static let http2Preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    public init(_ turns: DecryptedTurns) {
        let sent = [UInt8](turns.stream(.outbound))
        if sent.starts(with: Self.http2Preface) || (sent.count < Self.http2Preface.count && !sent.isEmpty
                                                     && Self.http2Preface.starts(with: sent) && turns.isCut(.outbound)) {
            self = .http2
        } else if let conversation = HTTP1Conversation(turns) {
            self = .http1(conversation)
        } else {
            self = .unrecognized
        }
    }

    /// The protocol's name, nil when unrecognized.
    public var name: String? {
        switch self {
        case .http1: "HTTP/1.1"
        case .http2: "HTTP/2"
        case .unrecognized: nil
        }
    }
}

/// The HTTP/1.1 requests and responses of one connection, read from each direction's kept
/// stream. Nil unless the sent bytes begin with a whole request head and everything kept reads
/// as messages (a cut at the end is fine: it is said).
public struct HTTP1Conversation: Sendable, Equatable {
    public let exchanges: [HTTP1Exchange]
    /// Bytes kept after the last message that could be read: a head the cut left incomplete.
    public let unreadSentBytes: Int
    public let unreadReceivedBytes: Int
    /// After a 101 Switching Protocols the connection spoke another protocol (RFC 9110 §15.2.2).
    public let switchedProtocols: Bool

    /// Bounds the work on a keep-alive connection's kept bytes.
    static let maxMessages = 1000

    public init?(_ turns: DecryptedTurns) {
        let sent = [UInt8](turns.stream(.outbound)), received = [UInt8](turns.stream(.inbound))
        guard case let .read(requests, unreadSent) = Self.messages(sent, cut: turns.isCut(.outbound), read: HTTP1Reader.request),
              !requests.isEmpty else { return nil }
        var exchanges: [HTTP1Exchange] = []
        var position = received.startIndex
        var interim: [HTTP1Message] = []
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
                if let status = response.status, (100..<200).contains(status) {
                    interim.append(response)
                    switched = status == 101
                    if switched { unreadReceived = received.endIndex - position }
                } else {
                    exchanges.append(HTTP1Exchange(request: request, interim: interim, response: response))
                    interim = []
                }
            }
        }
        while exchanges.count < requests.count {
            exchanges.append(HTTP1Exchange(request: requests[exchanges.count], interim: interim, response: nil))
            interim = []
        }
        if !interim.isEmpty { exchanges.append(HTTP1Exchange(request: nil, interim: interim, response: nil)) }
        self.exchanges = exchanges
        unreadSentBytes = unreadSent
        unreadReceivedBytes = unreadReceived
        switchedProtocols = switched
    }

    enum Messages { case read([HTTP1Message], unread: Int), notHTTP }

    /// Every message of one direction's stream; the last one's body marked cut when `cut`.
    static func messages(_ bytes: [UInt8], cut: Bool, read: (ArraySlice<UInt8>) -> HTTP1ReadOutcome) -> Messages {
        var messages: [HTTP1Message] = []
        var position = bytes.startIndex
        while position < bytes.endIndex, messages.count < maxMessages {
            switch read(bytes[position...]) {
            case .notHTTP: return .notHTTP
            case .headCut: return .read(messages, unread: bytes.endIndex - position)
            case let .message(message, consumed):
                position += consumed
                messages.append(position == bytes.endIndex && cut ? message.withBodyCut() : message)
            }
        }
        return .read(messages, unread: bytes.endIndex - position)
    }
}

extension HTTP1Message {
    /// This message with its body known to be cut: its direction's budget ran out in it.
    func withBodyCut() -> HTTP1Message { HTTP1Message(start: start, fields: fields, body: body.cut()) }
}
