import Foundation
import Shared

/// Reads one direction of an HTTP/1.1 connection message by message from what was kept, gaps
/// and all (`KeptStream`): a body the budget cut is passed over by its declared length, so the
/// next message is read where it really begins. A chunked body, or one that runs to the close,
/// cannot be measured across a gap: it ends where its gap ends, which is where the budget began
/// keeping again — the start of the direction's next turn.
struct HTTP1MessageReader {
    private var reader: KeptStream.Reader
    /// Bytes passed over between messages: a head the budget cut, or what followed an
    /// unreadable run after a gap.
    private(set) var notKeptBetween = 0

    init(_ stream: KeptStream) {
        reader = KeptStream.Reader(stream)
    }

    /// How many kept bytes are behind.
    var offset: Int { reader.offset }
    /// Nothing is left, kept or not.
    var atEnd: Bool { reader.atEnd }
    /// The kept bytes from here to the next gap or the end.
    var run: ArraySlice<UInt8> { reader.run }

    enum Outcome: Equatable {
        case message(DecryptedHTTPMessage)
        /// The kept bytes end inside a head: this many are left unread.
        case headCut(unread: Int)
        case notHTTP(String)
        /// Everything was read.
        case end
    }

    /// The next message, passing over gaps between messages.
    mutating func next(isRequest: Bool, requestMethod: String?) -> Outcome {
        var afterGap = false
        while true {
            if let gap = reader.gapHere {
                notKeptBetween += reader.take(gap).notKept
                afterGap = true
                continue
            }
            if reader.atEnd { return .end }
            let run = reader.run
            switch HTTP1Reader.head(run, isRequest: isRequest, requestMethod: requestMethod) {
            case let .notHTTP(reason):
                // Past a gap the bytes may begin inside something not kept: passed over, not refused.
                guard afterGap, !run.isEmpty else { return .notHTTP(reason) }
                notKeptBetween += reader.take(run.count).carriedCount
            case .headCut:
                var probe = reader
                _ = probe.take(run.count)
                guard probe.gapHere != nil else { return .headCut(unread: run.count) }
                notKeptBetween += reader.take(run.count).carriedCount   // the budget cut the head
                afterGap = true
            case let .head(start, fields, framing, consumed):
                _ = reader.take(consumed)
                guard let body = body(framing) else { return .notHTTP("a chunked body whose chunk sizes do not parse") }
                return .message(DecryptedHTTPMessage(start: start, fields: fields, body: body))
            }
        }
    }

    /// The body at the front, as its framing measures it; nil when chunk framing is malformed.
    private mutating func body(_ framing: DecryptedHTTPBody.Framing) -> DecryptedHTTPBody? {
        switch framing {
        case .none, .frames:   // HTTP/1.1's framing never says frames
            return .empty
        case let .length(length):
            let taken = reader.take(length)
            return DecryptedHTTPBody(framing: framing, bytes: Data(taken.front), isComplete: taken.isWhole,
                                     cutByBudget: taken.notKept > 0)
        case .untilClose:
            let taken = reader.takeRest()
            return DecryptedHTTPBody(framing: framing, bytes: Data(taken.front), isComplete: taken.isWhole,
                                     cutByBudget: taken.notKept > 0)
        case .chunked:
            let run = reader.run
            let (body, used) = DecryptedHTTPBody.chunked(run)
            guard let body else { return nil }
            _ = reader.take(used)
            guard !body.isComplete, let gap = reader.gapHere else { return body }
            _ = reader.take(gap)
            return DecryptedHTTPBody(framing: framing, bytes: body.bytes, isComplete: false, cutByBudget: true)
        }
    }
}
