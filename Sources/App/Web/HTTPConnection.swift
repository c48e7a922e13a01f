/// One HTTP/1.1 connection as a state machine (STYLE practice 6, like `ControlConnection`): the
/// shell reports what the socket and the timers did, and does what the returned action says. No
/// I/O and no clock: the connection names the one timer it wants (`deadline`, with a generation
/// so a stale timer is ignored) and whether it wants to read or write.
///
/// - One request at a time: while a response is made and written, nothing is read, so pipelined
///   bytes wait in the parser's buffer and are read once the response is out (RFC 9112 § 9.3.2).
/// - Keep-alive: HTTP/1.1 keeps the connection unless `Connection: close`; HTTP/1.0 only with
///   `Connection: keep-alive` (§ 9.3).
/// - Deadlines: idle (nothing begun), request (first byte to last: a dribbling client is told 408
///   and closed), write (a response the client stops taking), heartbeat (an event stream's
///   keep-alive comment).
/// - Bodies: one in memory goes out after the head without being copied into it; a file
///   (`HTTPFileBody`) is asked of the shell a chunk at a time (`.readBody`), each once the one
///   before is taken, so a slow client holds one chunk, never the file.
/// - Event stream: after an `.eventStream` response the connection only carries pushed events
///   until the client goes; bytes it sends are dropped; a backlog over the limit closes it.
/// - HEAD: the head GET would get — a file's or a stream's included — and no body (RFC 9110 § 9.3.2).
package struct HTTPConnection: Sendable {
    package enum Action: Sendable, Equatable {
        /// Nothing to do until the socket or the deadline says more.
        case wait
        /// A whole request: decide access, answer it, and report the answer with `responded(_:)`.
        case respond(HTTPRequest)
        /// Write these bytes now and report what the socket took with `wrote(_:)`.
        case send(ArraySlice<UInt8>)
        /// Read up to `count` bytes of `file` from `offset` and hand them to `bodyRead(_:)`
        /// (nothing, at a failed read or an early end of the file).
        case readBody(HTTPFileBody, offset: UInt64, count: Int)
        /// Close the connection (and log the reason if it has a refusal).
        case close(HTTPCloseReason)
    }

    /// The timer the shell should have armed: `delay` from when it saw this generation.
    package struct Deadline: Sendable, Equatable {
        package enum Kind: Sendable, Equatable { case idle, request, write, heartbeat }
        package let kind: Kind
        package let delay: Duration
        package let generation: UInt64
    }

    /// What the answer to the request being made needs to know of it.
    private struct Exchange: Sendable, Equatable {
        let path: String
        let headOnly: Bool
        let keepAlive: Bool
        let http10: Bool
    }

    private enum Phase: Sendable, Equatable {
        case reading
        case responding(Exchange)
        /// A response is going out; then the next request, or a close for this reason.
        case writing(thenClose: HTTPCloseReason?)
        case streaming
        case closed
    }

    package let limits: WebServerLimits
    private var parser: HTTPRequestParser
    private var phase = Phase.reading
    private var output: [UInt8] = []
    private var sent = 0
    /// What goes out once `output` has: the rest of the response being written.
    private var body: PendingBody?
    /// The socket took nothing more on the last write: wait for it to be writable.
    private var blocked = false
    package private(set) var deadline: Deadline?
    private var generation: UInt64 = 0

    private enum PendingBody: Sendable, Equatable {
        case bytes([UInt8])
        case file(HTTPFileBody, offset: UInt64)
    }

    /// Bytes a stream's client sends are read (to see it leave) and dropped, this many at a time.
    static let streamReadSize = 4096
    /// The most of a file body asked for at once: what one connection's download holds in memory.
    package static let bodyChunkSize = 64 * 1024

    package init(limits: WebServerLimits = .standard) {
        self.limits = limits
        parser = HTTPRequestParser(limits: limits)
        arm(.idle)
    }

    // MARK: What the shell watches

    package var wantsRead: Bool { phase == .reading || phase == .streaming }
    package var wantsWrite: Bool { blocked && sent < output.count }
    package var isStreaming: Bool { phase == .streaming }
    /// Whether it waits for a request with none begun (between two, or before its first).
    package var isIdle: Bool { phase == .reading && !parser.hasPartialRequest }

    /// How many bytes the next read may take: no more than a request may still grow by (plus
    /// one, so an overflow is seen).
    package var readLimit: Int {
        switch phase {
        case .reading: max(1, limits.maximumRequestBytes + 1 - parser.buffered.count)
        case .streaming: Self.streamReadSize
        default: 0
        }
    }

    // MARK: Events

    /// Bytes read from the client (never empty: an empty read is `endOfStream`).
    package mutating func received(_ bytes: some Collection<UInt8>) -> Action {
        guard phase == .reading else { return .wait }
        return handle(parser.feed(bytes))
    }

    /// The client closed its side.
    package mutating func endOfStream() -> Action {
        guard phase != .closed else { return .wait }
        let streaming = phase == .streaming
        phase = .closed
        return .close(streaming ? .finished : .clientGone)
    }

    /// Reading or writing the socket failed (ECONNRESET, EPIPE, …).
    package mutating func failed() -> Action {
        guard phase != .closed else { return .wait }
        phase = .closed
        return .close(.clientGone)
    }

    /// The answer to the request `respond` handed out (or the access check's refusal of it).
    package mutating func responded(_ response: HTTPResponse) -> Action {
        guard case .responding(let exchange) = phase else { return .wait }
        let secured = WebSecurityHeaders.applied(to: response, path: exchange.path)
        if secured.body == .eventStream && !exchange.headOnly {
            output = HTTPResponseEncoder.encode(secured, keepAlive: false)
            phase = .streaming
            arm(.heartbeat)
        } else {
            // A HEAD of an event stream gets the stream's head, which says Connection: close
            // (its body has no length), and then the close it promised.
            let keepAlive = exchange.keepAlive && secured.body != .eventStream
            output = HTTPResponseEncoder.head(secured, keepAlive: keepAlive, http10: exchange.http10)
            body = switch secured.body {
            case _ where exchange.headOnly: nil
            case .bytes(let bytes): bytes.isEmpty ? nil : .bytes(bytes)
            case .file(let file): .file(file, offset: 0)
            case .eventStream: nil
            }
            phase = .writing(thenClose: keepAlive ? nil : .finished)
            arm(.write)
        }
        sent = 0
        return sendPending()
    }

    /// The bytes `.readBody` asked for; empty when the read failed or the file ended before its
    /// length, which closes the connection: the head promised more than can be sent.
    package mutating func bodyRead(_ bytes: some Collection<UInt8>) -> Action {
        guard case .writing = phase, case .file(let file, let offset) = body else { return .wait }
        guard !bytes.isEmpty else {
            phase = .closed
            body = nil
            return .close(.bodyUnreadable(file.path))
        }
        output = Array(bytes)
        sent = 0
        body = .file(file, offset: offset + UInt64(bytes.count))
        return sendPending()
    }

    /// How many of the bytes `send` handed out the socket took; 0 when it would block (a failed
    /// write is `failed()`).
    package mutating func wrote(_ count: Int) -> Action {
        guard count > 0 else {
            blocked = true
            return .wait
        }
        sent += count
        if case .writing = phase { arm(.write) }   // progress: the client is reading
        guard sent >= output.count else { return .send(output[sent...]) }
        output = []
        sent = 0
        return nextOfBody() ?? written()
    }

    /// The socket is writable again after a write that took nothing.
    package mutating func writable() -> Action {
        blocked = false
        return sendPending()
    }

    /// An event for a stream (`ServerSentEvent.frame`); ignored by a connection that is not one.
    package mutating func push(_ frame: [UInt8]) -> Action {
        guard phase == .streaming else { return .wait }
        if output.count - sent + frame.count > limits.maximumStreamBacklog {
            phase = .closed
            return .close(.slowReader)
        }
        if sent > 0 {
            output.removeFirst(sent)
            sent = 0
        }
        output.append(contentsOf: frame)
        arm(.heartbeat)
        return blocked ? .wait : sendPending()
    }

    /// The timer of `deadline` fired; one of an older generation is ignored.
    package mutating func deadlinePassed(generation fired: UInt64) -> Action {
        guard let deadline, deadline.generation == fired, phase != .closed else { return .wait }
        switch deadline.kind {
        case .idle:
            phase = .closed
            return .close(.idle)
        case .request:
            return refuse(.requestTimedOut)
        case .write:
            let reason: HTTPCloseReason
            if case .writing(let then?) = phase, then != .finished { reason = then } else { reason = .slowReader }
            phase = .closed
            return .close(reason)
        case .heartbeat:
            return push(ServerSentEvent.heartbeat)
        }
    }

    /// The server is at its cap with none idle: this connection is told so at once, then closed.
    package mutating func refuseOverCap() -> Action {
        refuse(.overCap)
    }

    // MARK: Steps

    private mutating func handle(_ outcome: HTTPRequestParser.Outcome) -> Action {
        switch outcome {
        case .needMore:
            if parser.hasPartialRequest, deadline?.kind != .request { arm(.request) }
            return .wait
        case .request(let request, _):
            phase = .responding(Self.exchange(of: request))
            disarm()
            return .respond(request)
        case .refused(let refusal):
            return refuse(.refused(refusal))
        }
    }

    private mutating func refuse(_ reason: HTTPCloseReason) -> Action {
        guard let (status, sentence) = reason.refusal(limits) else {
            phase = .closed
            return .close(reason)
        }
        let response = WebSecurityHeaders.applied(to: WebRefusalResponse.make(status, sentence, form: .text), path: "")
        output = HTTPResponseEncoder.encode(response, keepAlive: false)
        body = nil
        sent = 0
        phase = .writing(thenClose: reason)
        arm(.write)
        return sendPending()
    }

    /// The next piece of the body once the last went out; nil when the body is all sent.
    private mutating func nextOfBody() -> Action? {
        switch body {
        case nil:
            return nil
        case .bytes(let bytes):
            body = nil
            output = bytes   // shares the responder's storage: no copy
            return sendPending()
        case let .file(file, offset):
            guard offset < file.length else {
                body = nil
                return nil
            }
            return .readBody(file, offset: offset, count: Int(min(UInt64(Self.bodyChunkSize), file.length - offset)))
        }
    }

    private mutating func sendPending() -> Action {
        guard sent < output.count else { return .wait }
        return .send(output[sent...])
    }

    /// The whole of the pending output went out.
    private mutating func written() -> Action {
        switch phase {
        case .writing(let reason?):
            phase = .closed
            return .close(reason)
        case .writing(nil):
            phase = .reading
            arm(.idle)
            // Pipelined bytes already here are the next request.
            return parser.hasPartialRequest ? handle(parser.next()) : .wait
        default:
            return .wait
        }
    }

    private static func exchange(of request: HTTPRequest) -> Exchange {
        let tokens = request.headers.values("Connection")
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingOWS.lowercased() }
        let http10 = request.version == "HTTP/1.0"
        let keepAlive = !tokens.contains("close") && (!http10 || tokens.contains("keep-alive"))
        return Exchange(path: request.path, headOnly: request.method == "HEAD", keepAlive: keepAlive, http10: http10)
    }

    private mutating func arm(_ kind: Deadline.Kind) {
        generation += 1
        let delay: Duration = switch kind {
        case .idle: limits.idleTimeout
        case .request, .write: limits.requestDeadline
        case .heartbeat: limits.heartbeatInterval
        }
        deadline = Deadline(kind: kind, delay: delay, generation: generation)
    }

    private mutating func disarm() {
        generation += 1
        deadline = nil
    }
}
