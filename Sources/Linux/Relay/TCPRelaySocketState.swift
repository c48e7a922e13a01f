import Foundation
import Posix

/// The decisions of one relayed TCP leg, without its socket: the bytes the relay gave that the
/// kernel has not taken yet, the half-close that waits for them, reading on and off, and where
/// the connection stands. Every event the shell sees — a call from the relay, a syscall's answer,
/// a readiness from the loop — is one `mutating func` returning what to do next (STYLE practices
/// 6 and 9), so each ordering of EAGAIN, short writes, resets and the peer's FIN is a unit test.
///
/// The rules it keeps:
/// - the relay hears `failed` at most once, and nothing after it;
/// - each byte the kernel takes is reported once, as `drained`, in order;
/// - `shutdown(SHUT_WR)` goes out only once every queued byte is written, and once;
/// - a write is tried when bytes arrive on an empty queue; behind a short write or EAGAIN the
///   rest waits for the loop to say writable (another try at once would only hear EAGAIN);
/// - the descriptor is watched only for what is wanted, and not at all when nothing is: the loop
///   is level-triggered and reports hang-ups and errors whatever the interest, so a socket
///   watched for nothing would wake it on every turn.
struct TCPRelaySocketState {
    enum Phase: Equatable {
        /// The non-blocking connect is under way: the loop says writable (or error) when it ends.
        case connecting
        case connected
        /// Failed or cancelled: nothing more is done or reported.
        case closed
    }

    /// What the relay is told.
    enum Report: Equatable {
        case connected
        /// The kernel took this many more of the queued bytes.
        case drained(Int)
        /// This many bytes were read (the shell hands them over).
        case received(Int)
        /// The server's FIN: no more bytes will come.
        case endOfStream
        case failed
    }

    /// How the loop should watch the descriptor from now on.
    enum Watch: Equatable {
        case register(EventLoop.Interest)
        case modify(EventLoop.Interest)
        case unregister
    }

    /// What the shell does after an event, in this order: watch, close, shut down, finish the
    /// connect, write, read, report. Each step it takes feeds its answer back as the next event.
    struct Actions: Equatable {
        var watch: Watch?
        /// Unregister the descriptor (if it is) and close the socket.
        var close = false
        /// With `close`: close with a reset (`RelayStreamSocket.abort`).
        var reset = false
        /// `shutdown(SHUT_WR)`.
        var shutdownWrite = false
        /// Ask the socket how its connect ended (SO_ERROR) and tell `connectFinished`.
        var finishConnect = false
        /// Send `pending` and tell `wrote`.
        var write = false
        /// Read within the relay's allowance and tell `received`.
        var read = false
        var report: Report?

        static let none = Actions()
    }

    private(set) var phase = Phase.connecting
    /// Given by the relay, not yet taken by the kernel, oldest first.
    private(set) var pending = Data()
    /// Whether `pending` is still the relay's own bytes, taken as they were (`enqueue`): they are
    /// lent, so whatever the kernel did not take is copied once the relay's call ends (`ownPending`).
    private var pendingIsLent = false
    private(set) var shutdownRequested = false
    private(set) var shutdownSent = false
    /// The relay's back-pressure: off while the device-bound buffer is full.
    private(set) var reading = true
    private(set) var endOfStream = false
    /// What the loop watches the descriptor for; nil when it is not registered.
    private(set) var watching: EventLoop.Interest?

    /// Whether a read may be made now.
    var mayRead: Bool { phase == .connected && reading && !endOfStream }

    /// What the loop should report, given the phase: a connect ends as writable or in error.
    private var wanted: EventLoop.Interest {
        switch phase {
        case .connecting: return .write
        case .closed: return []
        case .connected:
            var interest: EventLoop.Interest = []
            if mayRead { interest.insert(.read) }
            if !pending.isEmpty { interest.insert(.write) }
            return interest
        }
    }

    // MARK: The connect

    /// The first answer of the non-blocking connect; nil when no socket could be made at all.
    mutating func started(_ result: ConnectResult?) -> Actions {
        guard phase == .connecting else { return .none }
        guard let result else {
            phase = .closed
            return Actions(report: .failed)
        }
        return connectFinished(result)
    }

    /// Where the connect stands, asked after the loop reported the socket.
    mutating func connectFinished(_ result: ConnectResult) -> Actions {
        guard phase == .connecting else { return .none }
        switch result {
        case .inProgress:
            return rewatched(.none)
        case .failed:
            return fail()
        case .connected:
            phase = .connected
            var actions = Actions(report: .connected)
            // Whatever the relay asked before the connect ended: bytes wait for writable, a
            // half-close with nothing queued goes now.
            if pending.isEmpty { shutDownIfDue(&actions) }
            rewatch(&actions)
            return actions
        }
    }

    // MARK: Calls from the relay

    /// `send`: bytes for the server, after those queued. Bytes after the half-close was asked are
    /// refused: they would follow the FIN.
    mutating func enqueue(_ data: Data) -> Actions {
        guard phase != .closed, !data.isEmpty, !shutdownRequested else { return .none }
        let wasEmpty = pending.isEmpty
        // Usually nothing waits: take the relay's bytes as they are rather than copy them in.
        if wasEmpty {
            pending = data
            pendingIsLent = true
        } else {
            pending.append(data)
        }
        guard phase == .connected, wasEmpty else { return .none }
        return Actions(write: true)
    }

    /// After the relay's `send`: bytes taken as they were and not yet written are copied, since
    /// the relay lent them only for its call. Usually the kernel took them all and nothing is.
    mutating func ownPending() {
        guard pendingIsLent else { return }
        pendingIsLent = false
        if !pending.isEmpty { pending = pending.withUnsafeBytes { Data($0) } }
    }

    /// `shutdownWrite`: FIN after the queued bytes.
    mutating func requestShutdown() -> Actions {
        guard phase != .closed, !shutdownRequested else { return .none }
        shutdownRequested = true
        var actions = Actions.none
        if phase == .connected && pending.isEmpty { shutDownIfDue(&actions) }
        return actions
    }

    /// `setReading`: the relay's back-pressure.
    mutating func setReading(_ enabled: Bool) -> Actions {
        guard phase != .closed, reading != enabled else { return .none }
        reading = enabled
        return phase == .connected ? rewatched(.none) : .none
    }

    /// `cancel`: closed without a report.
    mutating func cancel() -> Actions {
        guard phase != .closed else { return .none }
        phase = .closed
        pending = Data()
        watching = nil
        return Actions(close: true)
    }

    /// The relay's `reset`: as `cancel`, the socket closed with a reset. Bytes still pending are
    /// dropped, as the device's reset dropped them.
    mutating func reset() -> Actions {
        var actions = cancel()
        actions.reset = actions.close
        return actions
    }

    // MARK: The loop and the kernel's answers

    /// The loop reported the descriptor.
    mutating func ready(_ readiness: EventLoop.Readiness) -> Actions {
        switch phase {
        case .closed:
            return .none
        case .connecting:
            return Actions(finishConnect: true)
        case .connected:
            // A hang-up or an error is heard by the call that would fail: the write if bytes
            // wait, else the read.
            let trouble = readiness.contains(.hangup) || readiness.contains(.error)
            var actions = Actions.none
            actions.write = !pending.isEmpty && (readiness.contains(.writable) || trouble)
            actions.read = mayRead && (readiness.contains(.readable) || trouble)
            return actions
        }
    }

    /// The answer to a send of `pending`.
    mutating func wrote(_ result: IOResult) -> Actions {
        guard phase == .connected else { return .none }
        switch result {
        case .processed(let count):
            let taken = min(count, pending.count)
            pending = taken == pending.count ? Data() : pending.dropFirst(taken)
            var actions = Actions(report: taken > 0 ? .drained(taken) : nil)
            if pending.isEmpty { shutDownIfDue(&actions) }
            rewatch(&actions)
            return actions
        case .wouldBlock:
            return rewatched(.none)
        case .failed:
            return fail()
        }
    }

    /// The answer to a read.
    mutating func received(_ result: ReceiveResult) -> Actions {
        guard phase == .connected, !endOfStream else { return .none }
        switch result {
        case .received(let count):
            return Actions(report: .received(count))
        case .endOfStream:
            endOfStream = true
            return rewatched(Actions(report: .endOfStream))
        case .wouldBlock:
            return .none
        case .failed:
            return fail()
        }
    }

    /// The loop refused to register or modify the descriptor.
    mutating func watchFailed() -> Actions {
        watching = nil
        return phase == .closed ? .none : fail()
    }

    // MARK: Steps

    private mutating func fail() -> Actions {
        phase = .closed
        pending = Data()
        watching = nil
        return Actions(close: true, report: .failed)
    }

    private mutating func shutDownIfDue(_ actions: inout Actions) {
        guard shutdownRequested, !shutdownSent else { return }
        shutdownSent = true
        actions.shutdownWrite = true
    }

    private mutating func rewatched(_ actions: Actions) -> Actions {
        var actions = actions
        rewatch(&actions)
        return actions
    }

    /// Tells the loop what is wanted now, only when that changed.
    private mutating func rewatch(_ actions: inout Actions) {
        let interest = wanted
        switch (watching, interest.isEmpty) {
        case (nil, true): return
        case (.some, true): actions.watch = .unregister
        case (nil, false): actions.watch = .register(interest)
        case (.some(let current), false):
            guard current != interest else { return }
            actions.watch = .modify(interest)
        }
        watching = interest.isEmpty ? nil : interest
    }
}
