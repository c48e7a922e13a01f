import Shared

/// Why the control server closed a connection: each one is counted in `ControlStats`.
package enum ControlCloseReason: Sendable, Equatable {
    /// The command was read and its reply fully written.
    case answered
    /// More than a command's bytes arrived without a newline.
    case overLong
    /// The exchange did not finish before its deadline.
    case idle
    /// The server already held its maximum of connections.
    case overCap
    /// The client hung up, or its socket failed, before the exchange was over.
    case clientGone

    /// What the client is told before the close, if anything: the remedy, as a `failed` answer.
    func refusal(_ limits: ControlServerLimits) -> String? {
        switch self {
        case .answered, .clientGone: nil
        case .overLong:
            "a control command is one JSON line of at most \(limits.maximumCommandBytes) bytes; this one was "
                + "longer without a newline — send one command per line, as `tunnelvision stats` does"
        case .idle:
            "no complete command and reply within \(limits.exchangeDeadline.components.seconds) s; the connection is closed — "
                + "send the whole command line at once and read the answer"
        case .overCap:
            "the tunnel is already serving \(limits.maximumConnections) control connections; try again in a moment"
        }
    }
}

extension ControlStats {
    /// Counts one closed connection under its reason.
    package mutating func record(_ reason: ControlCloseReason) {
        switch reason {
        case .answered: commandsAnswered += 1
        case .overLong: refusedOverLong += 1
        case .idle: closedIdle += 1
        case .overCap: refusedOverCap += 1
        case .clientGone: clientsGone += 1
        }
    }
}
