import Posix
import Shared

/// One control connection's exchange as a state machine (STYLE practice 6): one command line in,
/// one reply line out, then closed — within `limits`' byte bound and deadline. No I/O and no
/// clock: the shell reads and writes the socket, reports each result and the deadline's timer as
/// an event, and does what the returned action says.
///
/// Simplifications: one command per connection (the client's protocol); bytes after the newline
/// are never read; a refusal is sent like a reply, and once the deadline has passed nothing waits
/// for the socket to drain.
package struct ControlConnection: Sendable {
    package enum Action: Sendable, Equatable {
        /// Nothing to do until the socket is readable again.
        case awaitCommand
        /// A whole command line, newline excluded: answer it with `respond(_:)`.
        case execute([UInt8])
        /// Send these bytes now and report the result with `wrote(_:)`.
        case send(ArraySlice<UInt8>)
        /// The socket took nothing more: watch it for writability, then call `writable()`.
        case awaitWritable
        /// Close the connection and count it under the reason.
        case close(ControlCloseReason)
        /// The connection is already closed: nothing to do.
        case closed
    }

    private enum Phase: Sendable, Equatable {
        case receiving([UInt8])
        case executing
        case replying(line: [UInt8], sent: Int, reason: ControlCloseReason)
        case closed
    }

    package let limits: ControlServerLimits
    private var phase: Phase = .receiving([])
    private var pastDeadline = false

    package init(limits: ControlServerLimits) {
        self.limits = limits
    }

    /// Whether the connection still waits for its command (watched for reading), rather than
    /// writing its reply.
    package var isReceiving: Bool {
        if case .receiving = phase { true } else { false }
    }

    /// How many bytes the next read may take: one more than the command may still grow, so an
    /// over-long line is seen without reading (or holding) any further.
    package var readLimit: Int {
        guard case .receiving(let buffer) = phase else { return 0 }
        return limits.maximumCommandBytes + 1 - buffer.count
    }

    // MARK: Events

    /// Bytes read from the client (at most `readLimit`; never empty — an empty read is
    /// `endOfStream`).
    package mutating func received(_ bytes: ArraySlice<UInt8>) -> Action {
        guard case .receiving(var buffer) = phase else { return .closed }
        phase = .executing   // drops the phase's reference, so the append below does not copy
        if let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) {
            buffer.append(contentsOf: bytes[..<newline])
            // `readLimit` kept the buffer within one byte of the limit, so the line fits.
            return .execute(buffer)
        }
        buffer.append(contentsOf: bytes)
        if buffer.count > limits.maximumCommandBytes { return refuse(.overLong) }
        phase = .receiving(buffer)
        return .awaitCommand
    }

    /// The client shut down its side before a newline.
    package mutating func endOfStream() -> Action {
        guard isReceiving else { return .closed }
        phase = .closed
        return .close(.clientGone)
    }

    /// Reading or writing the socket failed (ECONNRESET, …).
    package mutating func failed() -> Action {
        guard phase != .closed else { return .closed }
        phase = .closed
        return .close(.clientGone)
    }

    /// The answer to the command `execute` handed out, newline included.
    package mutating func respond(_ line: [UInt8]) -> Action {
        guard phase == .executing else { return .closed }
        phase = .replying(line: line, sent: 0, reason: .answered)
        return .send(line[...])
    }

    /// What a send of the bytes `send` asked for did.
    package mutating func wrote(_ result: IOResult) -> Action {
        guard case .replying(let line, let sent, let reason) = phase else { return .closed }
        switch result {
        case .processed(let count) where count > 0:
            if sent + count >= line.count {
                phase = .closed
                return .close(reason)
            }
            phase = .replying(line: line, sent: sent + count, reason: reason)
            return .send(line[(sent + count)...])
        case .processed, .wouldBlock:
            guard !pastDeadline else {
                phase = .closed
                return .close(reason == .answered ? .idle : reason)
            }
            return .awaitWritable
        case .failed:
            phase = .closed
            // A refusal that could not be delivered is still what happened to the connection.
            return .close(reason == .answered ? .clientGone : reason)
        }
    }

    /// The socket became writable while a reply waited.
    package func writable() -> Action {
        guard case .replying(let line, let sent, _) = phase else { return .closed }
        return .send(line[sent...])
    }

    /// The exchange's deadline passed: a client still sending is told and closed; one that does
    /// not take its reply is closed.
    package mutating func deadlinePassed() -> Action {
        pastDeadline = true
        switch phase {
        case .receiving:
            return refuse(.idle)
        case .executing, .replying:
            phase = .closed
            return .close(.idle)
        case .closed:
            return .closed
        }
    }

    /// The server already holds its maximum of connections: tell this one at once, with no
    /// waiting for the socket.
    package mutating func refuseOverCap() -> Action {
        pastDeadline = true
        return refuse(.overCap)
    }

    private mutating func refuse(_ reason: ControlCloseReason) -> Action {
        var line = ControlChannel.encode(ControlResponse.failed(reason.refusal(limits) ?? "\(reason)"))
        line.append(UInt8(ascii: "\n"))
        let bytes = [UInt8](line)
        phase = .replying(line: bytes, sent: 0, reason: reason)
        return .send(bytes[...])
    }
}
