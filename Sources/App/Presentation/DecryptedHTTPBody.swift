import Foundation

/// A message's body as kept: its framing (RFC 9112 §6 for HTTP/1.1; DATA frames up to
/// END_STREAM for HTTP/2, RFC 9113 §8.1), the bytes (chunked bodies decoded), and whether all of it
/// was kept.
package struct DecryptedHTTPBody: Sendable, Equatable {
    /// How the message said its body ends.
    package enum Framing: Sendable, Equatable {
        /// No body: a request without Content-Length or Transfer-Encoding; a response to HEAD; 1xx, 204, 304.
        case none
        case length(Int)
        case chunked
        /// A response with neither: its body is the rest of the connection.
        case untilClose
        /// HTTP/2: the stream's DATA frames, ended by the END_STREAM flag (RFC 9113 §8.1).
        case frames
    }

    package let framing: Framing
    /// The body's bytes; for chunked, the chunks' data joined, without sizes or trailers.
    package let bytes: Data
    /// Every byte of the body was kept: the declared length reached, the last chunk seen, or the
    /// connection's end recorded. False when the budget cut it or the connection ended early.
    package let isComplete: Bool
    /// The budget for decrypted content ran out in this body's direction, in it or after it: what
    /// is missing was not kept. When false, an incomplete body is one the connection ended before
    /// its sender finished it — the budget is never blamed for bytes that were never sent.
    package let cutByBudget: Bool
    /// What the body carried, kept or not, when known beyond the kept bytes: HTTP/2's DATA frame
    /// headers say it; `carriedIsTotal` when its last frame was seen, else it is a lower bound.
    package var carried: Int?
    package var carriedIsTotal = true

    package init(framing: Framing, bytes: Data, isComplete: Bool, cutByBudget: Bool = false) {
        self.framing = framing
        self.bytes = bytes
        self.isComplete = isComplete
        self.cutByBudget = cutByBudget
    }

    /// The body's whole length when known — all of it kept, or the budget kept less of a body whose
    /// length was declared or whose HTTP/2 frames were all seen; nil when only a lower bound is
    /// known (HAR's bodySize says -1 then).
    var carriedLength: Int? {
        if isComplete { return bytes.count }
        guard cutByBudget else { return nil }   // the connection ended before the rest came
        if case let .length(declared) = framing { return declared }
        return carriedIsTotal ? carried : nil
    }

    package static let empty = DecryptedHTTPBody(framing: .none, bytes: Data(), isComplete: true)

    /// The same body when its direction's budget ran out in it or after it: a body that runs to
    /// the connection's close is then cut; one that reached its declared end stays whole.
    func cut() -> DecryptedHTTPBody {
        var cut = DecryptedHTTPBody(framing: framing, bytes: bytes, isComplete: isComplete && framing != .untilClose, cutByBudget: true)
        cut.carried = carried
        cut.carriedIsTotal = carriedIsTotal
        return cut
    }
}
