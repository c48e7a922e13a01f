#if canImport(Glibc)
import Glibc
#endif
import App
import CTunnelVision
import Foundation
import Posix
import Shared
import Synchronization

/// The web app's HTTP server: one listening socket and its connections on one `EventLoop` thread
/// (the model is `ControlServer`: accept bursts, a cap, a timer per connection, MSG_NOSIGNAL, a
/// pause on EMFILE). Every decision is a pure core's — `HTTPConnection` for the exchange,
/// `WebAccess` for who may look and which keys are good, `WebAdmission` for who gives way at the
/// cap, `HTTPResponseEncoder` and `WebSecurityHeaders` for the bytes — and this class only moves
/// bytes, timers and answers between them and the kernel.
///
/// The responder is called on a Task (it reads SQLite and files) that prefers the server's own
/// executor (`WebResponderExecutor`), and its answer comes back to the loop with `execute`; a connection closed meanwhile is recognised by its serial number, so
/// an answer never reaches a reused descriptor. `broadcast` may be called from any thread.
///
/// `@unchecked Sendable`: `listener`, `connections`, `nextSerial` and `scratch` are touched only on
/// the loop thread (others go through `loop.execute`; before `start`, only the caller's thread);
/// `keys` and `lifecycle` are `Mutex`es.
package final class WebServer: @unchecked Sendable {
    package let limits: WebServerLimits
    /// The address listened on, with its real port.
    package let address: IPEndpoint
    /// The first address: the one `tunnelvision ui` prints (its key works once, like every other).
    package let url: String
    let loop: EventLoop
    private let responder: any WebResponder
    let log: @Sendable (String) -> Void
    private let executor = WebResponderExecutor()
    /// Who may look, and the keys: asked on the loop for each request, and from any thread for a
    /// new key (`mintAddress`), so behind a lock.
    let keys: Mutex<Keys>

    struct Keys {
        var access: WebAccess
        /// What to do once each key is spent (remove its browser's launch file).
        var whenSpent: [WebLoginKey.ID: @Sendable () -> Void] = [:]
        var stopped = false
    }

    // Loop thread only.
    private var listener: Int32 = -1
    private var connections: [Int32: Served] = [:]
    private var nextSerial: UInt64 = 0
    /// One read's memory — a request's bytes or a download's chunk — shared by every connection:
    /// the loop serves one at a time.
    private var scratch: [UInt8]

    private let finished = DispatchSemaphore(value: 0)
    private let lifecycle = Mutex(Lifecycle.created)

    /// Where the server is in its one life: `stop` waits for the loop only when `start` ran it.
    private enum Lifecycle { case created, serving, stopped }

    private struct Served {
        var connection: HTTPConnection
        /// In the order connections were accepted: the oldest gives way first at the cap.
        let serial: UInt64
        let peer: String
        var interest: EventLoop.Interest
        var timer: TimerID?
        var timerGeneration: UInt64?
        /// It showed the session cookie (or traded a key for it): never closed for a newcomer.
        var authenticated = false
        /// The request being answered, for the log.
        var request: (method: String, target: String)?
    }

    /// What every refusal is logged as, by default: one line on stderr.
    static let standardErrorLog: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Listens on `endpoint` (port 0: a free one) and serves `responder` behind the access checks.
    /// The session token and the first key are drawn from the system's random source. Call
    /// `start()` to serve.
    package init(listening endpoint: IPEndpoint = WebListenAddress.standard.endpoint, responder: any WebResponder,
                limits: WebServerLimits = .standard,
                log: @escaping @Sendable (String) -> Void = WebServer.standardErrorLog) throws(WebServerError) {
        do {
            loop = try EventLoop()
        } catch {
            throw .eventLoop(error)
        }
        let (descriptor, bound) = try WebListener.open(endpoint, backlog: limits.listenBacklog)
        var random = SystemRandomNumberGenerator()
        var access = WebAccess(listening: bound, keyLifetime: limits.keyLifetime, using: &random)
        let first = access.mint(now: .now, using: &random).key
        address = bound
        url = first.url
        keys = Mutex(Keys(access: access))
        self.limits = limits
        self.responder = responder
        self.log = log
        scratch = [UInt8](repeating: 0, count: max(64 * 1024, HTTPConnection.bodyChunkSize))
        listener = descriptor
        do {
            try loop.register(descriptor, interest: .read) { [weak self] _ in self?.acceptWaiting() }
        } catch {
            Glibc.close(descriptor)
            throw .eventLoop(error)
        }
        expireKeys(after: limits.keyLifetime)
    }

    deinit {
        if listener >= 0 { Glibc.close(listener) }
    }

    /// Serves on a thread of its own until `stop()`; after `stop()`, does nothing. Should the loop
    /// fail by itself (epoll_wait failing), it stops serving and `whenFailed` hears why, on the
    /// server's thread: the command ends with that reason, as the tunnel's does.
    package func start(whenFailed: @escaping @Sendable (EventLoopError) -> Void = { _ in }) {
        let starting = lifecycle.withLock { state in
            guard state == .created else { return false }
            state = .serving
            return true
        }
        guard starting else { return }
        let thread = Thread { [self] in
            do throws(EventLoopError) {
                try loop.run()
            } catch {
                whenFailed(error)
            }
            finished.signal()
        }
        thread.name = "tunnelvision ui"
        thread.start()
    }

    /// Closes every connection and the listener, and returns once the loop has stopped. From any
    /// thread but the loop's; before `start()` it only closes the listener, and a second call
    /// returns at once.
    package func stop() {
        let previous = lifecycle.withLock { state in
            defer { state = .stopped }
            return state
        }
        switch previous {
        case .stopped:
            return
        case .created:
            // No loop runs to hand the work to: the listener is this thread's to close.
            closeListener()
        case .serving:
            loop.execute { [self] in
                for client in Array(connections.keys) { finish(client, .serverStopping) }
                closeListener()
            }
            loop.stop()
            finished.wait()
        }
        spendEveryKey()
    }

    private func closeListener() {
        guard listener >= 0 else { return }
        try? loop.unregister(listener)
        Glibc.close(listener)
        listener = -1
    }

    /// Sends an event (`event: NAME`, `data: LINE`) to every open event stream. Any thread.
    package func broadcast(event: String, data: String) {
        let frame = ServerSentEvent.frame(event: event, data: data)
        loop.execute { [self] in
            for (client, served) in connections where served.connection.isStreaming {
                guard let action = connections[client]?.connection.push(frame) else { continue }
                drive(client, action)
            }
        }
    }

    /// How many event streams (`/api/live`) are open now: whether anybody watches. Any thread.
    func openStreams() async -> Int {
        await withCheckedContinuation { continuation in
            loop.execute { [self] in continuation.resume(returning: connections.values.filter { $0.connection.isStreaming }.count) }
        }
    }

    /// How many connections are open now (for tests; any thread, answered through the loop).
    package func openConnections() async -> Int {
        await withCheckedContinuation { continuation in
            loop.execute { [self] in continuation.resume(returning: connections.count) }
        }
    }

    // MARK: Accepting

    private func acceptWaiting() {
        ListenerAcceptor(burst: limits.acceptBurst, retryDelay: limits.acceptRetryDelay).acceptWaiting(
            on: listener, loop: loop, listening: { [weak self] in (self?.listener ?? -1) >= 0 },
            paused: { failure in
                log("\(Date().formatted(.iso8601)) tunnelvision ui: cannot accept a connection "
                    + "(\(String(cString: strerror(failure)))); pausing for \(limits.acceptRetryDelay)")
            },
            accepted: { client in admit(client) })
    }

    /// At the cap, the oldest connection that never showed the cookie gives way; with none, the
    /// new one is told why (`WebAdmission`).
    private func admit(_ client: Int32) {
        let open = connections.lazy.map { client, served in
            WebAdmission.Connection(id: client, accepted: served.serial, authenticated: served.authenticated)
        }
        switch WebAdmission.decide(open: open, maximum: limits.maximumConnections) {
        case .admit:
            serve(client)
        case .evict(let victim):
            finish(victim, .evicted)
            serve(client)
        case .refuse:
            refuseAtOnce(client)
        }
    }

    private func serve(_ client: Int32) {
        var on: Int32 = 1
        _ = setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        let serial = nextSerial
        nextSerial += 1
        do {
            try loop.register(client, interest: .read) { [weak self] readiness in self?.ready(client, readiness) }
        } catch {
            Glibc.close(client)
            return
        }
        let peer = SocketAddress.of(client, peer: true)?.endpoint?.description ?? "-"
        connections[client] = Served(connection: HTTPConnection(limits: limits), serial: serial, peer: peer,
                                     interest: .read)
        sync(client)
    }

    /// Over the cap with none idle: the 503 goes out in one send (a fresh socket's buffer takes
    /// it), and the connection is closed without ever being watched.
    private func refuseAtOnce(_ client: Int32) {
        var connection = HTTPConnection(limits: limits)
        var action = connection.refuseOverCap()
        while case .send(let bytes) = action {
            switch ServedClient.send(bytes, to: client) {
            case .processed(let count): action = connection.wrote(count)
            case .wouldBlock, .failed: action = connection.failed()
            }
        }
        let peer = SocketAddress.of(client, peer: true)?.endpoint?.description ?? "-"
        Glibc.close(client)
        if case .close(let reason) = action, let (status, sentence) = reason.refusal(limits) {
            log(WebLogLine.refusal(at: Date(), peer: peer, method: nil, target: nil, status: status, sentence: sentence))
        }
    }

    // MARK: One connection

    private func ready(_ client: Int32, _ readiness: EventLoop.Readiness) {
        guard let served = connections[client] else { return }
        if readiness.contains(.writable), served.connection.wantsWrite, let action = connections[client]?.connection.writable() {
            drive(client, action)
        }
        guard let connection = connections[client]?.connection else { return }
        guard connection.wantsRead else {
            // Hung up while an answer is made: level-triggered, it would be reported every turn.
            if !readiness.isDisjoint(with: [.hangup, .error]) { finish(client, .clientGone) }
            return
        }
        guard !readiness.isDisjoint(with: [.readable, .hangup, .error]) else { return }
        let result = ServedClient.read(client, into: &scratch, limit: connection.readLimit)
        let action: HTTPConnection.Action? = switch result {
        case .processed(0): connections[client]?.connection.endOfStream()
        case .processed(let count): connections[client]?.connection.received(scratch[..<count])
        case .wouldBlock: nil
        case .failed: connections[client]?.connection.failed()
        }
        if let action { drive(client, action) }
    }

    /// Does what the connection asks until it waits or is closed, then watches what it wants.
    private func drive(_ client: Int32, _ first: HTTPConnection.Action) {
        var action = first
        while true {
            let next: HTTPConnection.Action?
            switch action {
            case .wait:
                sync(client)
                return
            case .respond(let request):
                next = decide(client, request)
            case .send(let bytes):
                next = switch ServedClient.send(bytes, to: client) {
                case .processed(let count): connections[client]?.connection.wrote(count)
                case .wouldBlock: connections[client]?.connection.wrote(0)
                case .failed: connections[client]?.connection.failed()
                }
            case let .readBody(file, offset, count):
                let read = scratch.withUnsafeMutableBytes { buffer in
                    file.read(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(count, buffer.count)]))
                }
                next = connections[client]?.connection.bodyRead(scratch[..<(read ?? 0)])
            case .close(let reason):
                return finish(client, reason)
            }
            guard let next else { return }
            action = next
        }
    }

    /// The access check first; a request it lets through goes to the responder on a Task.
    private func decide(_ client: Int32, _ request: HTTPRequest) -> HTTPConnection.Action? {
        connections[client]?.request = (request.method, request.target)
        switch keys.withLock({ $0.access.decide(request, now: .now) }) {
        case .login(let response, let spent):
            connections[client]?.authenticated = true
            if let spent { keySpent(spent) }
            return connections[client]?.connection.responded(response)
        case .refuse(let reason):
            if let peer = connections[client]?.peer {
                log(WebLogLine.refusal(at: Date(), peer: peer, method: request.method, target: request.target,
                                       status: reason.status, sentence: reason.sentence))
            }
            return connections[client]?.connection.responded(reason.response(path: request.path))
        case .pass:
            connections[client]?.authenticated = true
            guard let serial = connections[client]?.serial else { return nil }
            let responder = self.responder
            Task(executorPreference: executor) { [weak self] in
                let response = await responder.respond(to: request)
                self?.loop.execute { [weak self] in self?.answered(client, serial: serial, response) }
            }
            return .wait
        }
    }

    private func answered(_ client: Int32, serial: UInt64, _ response: HTTPResponse) {
        guard connections[client]?.serial == serial, let action = connections[client]?.connection.responded(response) else {
            return   // closed meanwhile; the descriptor may be another connection's now
        }
        drive(client, action)
    }

    private func timerFired(_ client: Int32, serial: UInt64, generation: UInt64) {
        guard connections[client]?.serial == serial else { return }
        connections[client]?.timer = nil
        connections[client]?.timerGeneration = nil
        guard let action = connections[client]?.connection.deadlinePassed(generation: generation) else { return }
        drive(client, action)
    }

    /// Watches the socket for what the connection wants, and arms the timer it names.
    private func sync(_ client: Int32) {
        guard var served = connections[client] else { return }
        var interest: EventLoop.Interest = []
        if served.connection.wantsRead { interest.insert(.read) }
        if served.connection.wantsWrite { interest.insert(.write) }
        if interest != served.interest {
            do {
                try loop.modify(client, interest: interest)
                served.interest = interest
            } catch {
                return finish(client, .clientGone)
            }
        }
        let wanted = served.connection.deadline
        if wanted?.generation != served.timerGeneration {
            if let timer = served.timer { loop.cancel(timer) }
            served.timer = nil
            served.timerGeneration = nil
            if let wanted {
                let serial = served.serial
                served.timer = loop.schedule(after: wanted.delay) { [weak self] in
                    self?.timerFired(client, serial: serial, generation: wanted.generation)
                }
                served.timerGeneration = wanted.generation
            }
        }
        connections[client] = served
    }

    private func finish(_ client: Int32, _ reason: HTTPCloseReason) {
        guard let served = connections.removeValue(forKey: client) else { return }
        if let timer = served.timer { loop.cancel(timer) }
        ServedClient.close(client, on: loop)
        if let (status, sentence) = reason.refusal(limits) {
            // Only a slow reader's request is known to be the one that failed; the others failed reading one.
            let request = reason == .slowReader ? served.request : nil
            log(WebLogLine.refusal(at: Date(), peer: served.peer, method: request?.method, target: request?.target,
                                   status: status, sentence: sentence))
        }
    }
}
