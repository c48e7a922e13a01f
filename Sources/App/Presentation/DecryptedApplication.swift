import Foundation
import Shared

/// One request and the response that answered it, paired in order on a keep-alive connection
/// (RFC 9112 §9.3: responses come in the order of the requests). Either side may be missing: a
/// request whose response was not kept, a response whose request the budget cut.
package struct DecryptedHTTPExchange: Sendable, Equatable {
    package let request: DecryptedHTTPMessage?
    /// 1xx answers before the final one (100 Continue, 103 Early Hints), in order.
    package let interim: [DecryptedHTTPMessage]
    package let response: DecryptedHTTPMessage?
    /// HTTP/2: the stream that carried the exchange, and for a pushed one the stream whose
    /// PUSH_PROMISE opened it; nil on HTTP/1.1.
    package var stream: UInt32? = nil
    package var promisedBy: UInt32? = nil
    /// What else happened to it, in words (a reset, a push).
    package var notes: [String] = []
}

/// What the application protocol of an inspected connection's kept bytes is, as far as a
/// reader can tell without guessing: HTTP/1.1 read message by message, HTTP/2 (named by its
/// preface, RFC 9113 §3.4) read stream by stream, or neither — then the turns alone. Never an
/// error: what does not parse is simply shown as it was.
package enum DecryptedApplication: Sendable, Equatable {
    case http1(HTTP1Conversation)
    case http2(HTTP2Conversation)
    case unrecognized

    package init(_ turns: DecryptedTurns) {
        let sent = [UInt8](turns.stream(.outbound))
        let preface = HTTP2Connection.preface
        if sent.starts(with: preface) || (sent.count < preface.count && !sent.isEmpty && preface.starts(with: sent) && turns.isCut(.outbound)) {
            self = .http2(HTTP2Conversation(turns))
        } else if let conversation = HTTP1Conversation(turns) {
            self = .http1(conversation)
        } else {
            self = .unrecognized
        }
    }

    /// The requests and responses read, nil when the protocol is not HTTP.
    package var exchanges: [DecryptedHTTPExchange]? {
        switch self {
        case let .http1(conversation): conversation.exchanges
        case let .http2(conversation): conversation.exchanges
        case .unrecognized: nil
        }
    }

    /// The protocol's name, nil when unrecognized.
    package var name: String? {
        switch self {
        case .http1: "HTTP/1.1"
        case .http2: "HTTP/2"
        case .unrecognized: nil
        }
    }
}
