/// Reads HTTP/1.1 requests from a connection's bytes, fed as they arrive (RFC 9112):
///
///     HTTP-message   = request-line CRLF *( field-line CRLF ) CRLF [ message-body ]   § 2.1
///     request-line   = method SP request-target SP HTTP-version                       § 3
///     method         = token                                                          § 3.1
///     request-target = origin-form = absolute-path [ "?" query ]                      § 3.2.1
///     HTTP-version   = "HTTP/" DIGIT "." DIGIT                                        § 2.3
///     field-line     = field-name ":" OWS field-value OWS                             § 5
///     message-body   = Content-Length octets                                          § 6.2
///
/// Bounded and settled (STYLE practice 5): every length is capped by `WebServerLimits`, a refusal
/// is final, and the same bytes give the same outcome however they are cut into chunks (the head
/// is judged only once it is whole, or once it is over a limit, which any cut crosses alike).
/// A request's bytes leave the buffer when it is handed over; bytes after it (pipelining) stay
/// and are read by `next()`.
///
/// Strict where RFC 9112 lets a server choose: lines end in CRLF (a bare LF or CR is 400), no
/// obs-fold, no whitespace before a colon, only origin-form targets, no Transfer-Encoding (501:
/// no client of ours sends a chunked body), no `Expect: 100-continue` interim answer (curl waits
/// a second and sends the body anyway). Empty lines before a request line are skipped (§ 2.2).
package struct HTTPRequestParser: Sendable {
    package enum Outcome: Sendable, Equatable {
        /// The buffered bytes are a proper prefix of a request.
        case needMore
        /// A whole request, and how many of the buffered bytes it took.
        case request(HTTPRequest, consumed: Int)
        /// Refused for good: answer with its status and close.
        case refused(HTTPRefusal)
    }

    package let limits: WebServerLimits
    /// Bytes received and not yet handed over as a request.
    package private(set) var buffered: [UInt8] = []
    /// Where the search for the head's end resumes.
    private var scanned = 0
    /// Where the request line's LF is, once seen.
    private var requestLineEnd: Int?
    /// The head once read, while its body is awaited: read once, not again per chunk of body.
    private var pendingHead: (end: Int, head: HTTPRequestHead)?
    private var settled: HTTPRefusal?

    package init(limits: WebServerLimits = .standard) {
        self.limits = limits
    }

    /// Whether part of a request is waiting (so its deadline runs), rather than nothing at all.
    package var hasPartialRequest: Bool { !buffered.isEmpty }

    /// Appends bytes from the connection and reads what they complete.
    package mutating func feed(_ bytes: some Collection<UInt8>) -> Outcome {
        if let settled { return .refused(settled) }
        buffered.append(contentsOf: bytes)
        return next()
    }

    /// Reads the next request from what is already buffered (after a request was handed over).
    package mutating func next() -> Outcome {
        if let settled { return .refused(settled) }
        switch read() {
        case .needMore:
            return .needMore
        case .refused(let refusal):
            settled = refusal
            buffered = []
            return .refused(refusal)
        case .request(let request, let consumed):
            buffered.removeFirst(consumed)
            scanned = 0
            requestLineEnd = nil
            pendingHead = nil
            return .request(request, consumed: consumed)
        }
    }

    // MARK: Reading

    private static let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n"), space = UInt8(ascii: " ")

    /// Room the request line has beyond its target, for the method, the spaces and the version.
    static let requestLineOverhead = 64

    private mutating func read() -> Outcome {
        if let (headEnd, head) = pendingHead { return body(after: headEnd, of: head) }
        // § 2.2: empty lines before the request line are skipped.
        var start = 0
        while start + 1 < buffered.count, buffered[start] == Self.cr, buffered[start + 1] == Self.lf { start += 2 }
        if start > limits.maximumHeaderBytes { return .refused(.headerSectionTooLarge(limit: limits.maximumHeaderBytes)) }
        if start == buffered.count || (start + 1 == buffered.count && buffered[start] == Self.cr) { return .needMore }
        scanned = max(scanned, start)
        let headEnd = findHeadEnd(from: start)
        let available = (headEnd ?? buffered.count) - start
        if let refusal = overLimit(start: start, headLength: available) { return .refused(refusal) }
        guard let headEnd else { return .needMore }
        let head: HTTPRequestHead
        do {
            head = try HTTPRequestHead(buffered[start..<headEnd], limits: limits)
        } catch {
            return .refused(error)
        }
        pendingHead = (headEnd, head)
        return body(after: headEnd, of: head)
    }

    private func body(after headEnd: Int, of head: HTTPRequestHead) -> Outcome {
        let consumed = headEnd + head.contentLength
        guard buffered.count >= consumed else { return .needMore }
        var request = head.request
        request.body = Array(buffered[headEnd..<consumed])
        return .request(request, consumed: consumed)
    }

    /// The index just past the blank line ending the head (LF CRLF, or LF LF — which the head's
    /// reading then refuses as a bare LF), or nil while it has not arrived.
    private mutating func findHeadEnd(from start: Int) -> Int? {
        var index = scanned
        let count = buffered.count
        while index < count {
            if buffered[index] == Self.lf {
                if requestLineEnd == nil { requestLineEnd = index }
                guard index + 1 < count else { break }
                if buffered[index + 1] == Self.lf { return index + 2 }
                if buffered[index + 1] == Self.cr {
                    guard index + 2 < count else { break }
                    if buffered[index + 2] == Self.lf { return index + 3 }
                }
            }
            index += 1
        }
        scanned = index
        return nil
    }

    /// The limits, judged on the bytes so far the same way whether the head is whole or not, so
    /// that any cut of the input crosses them alike: of the two, the one crossed at the earlier
    /// byte is the refusal (a chunk may cross both at once).
    private func overLimit(start: Int, headLength: Int) -> HTTPRefusal? {
        let lineLength = (requestLineEnd ?? buffered.count) - start
        let lineLimit = limits.maximumTargetBytes + Self.requestLineOverhead
        let lineCrossed = lineLength > lineLimit ? lineLimit + 1 : Int.max
        let headCrossed = headLength > limits.maximumHeaderBytes ? limits.maximumHeaderBytes + 1 : Int.max
        if lineCrossed == Int.max, headCrossed == Int.max { return nil }
        if headCrossed <= lineCrossed { return .headerSectionTooLarge(limit: limits.maximumHeaderBytes) }
        // A method ends within the first few bytes; a line that long past it is its target.
        let methodEnd = buffered[start..<(start + min(32, lineCrossed))].firstIndex(of: Self.space)
        return methodEnd == nil ? .malformedRequestLine : .targetTooLong(limit: limits.maximumTargetBytes)
    }
}
