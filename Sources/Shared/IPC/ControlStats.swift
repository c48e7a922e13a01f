/// What the control server did with the connections it was offered: how many commands it
/// answered and, by reason, how many connections it closed without an answer — so a local program
/// flooding or holding the control socket shows up in `tunnelvision stats` instead of only as a
/// slower tunnel.
package struct ControlStats: Codable, Sendable, Equatable {
    /// Commands read and answered (a malformed one gets a `failed` answer and counts here too).
    package var commandsAnswered: UInt64
    /// Connections that sent more than a command can be without a newline: answered with an error
    /// line and closed.
    package var refusedOverLong: UInt64
    /// Connections that did not finish their exchange in time (no full line, or a reply not taken):
    /// closed.
    package var closedIdle: UInt64
    /// Connections accepted while the server already held its maximum: answered with an error line
    /// and closed at once.
    package var refusedOverCap: UInt64
    /// Clients that hung up or failed before a full command, or before taking their reply.
    package var clientsGone: UInt64
    /// accept(2) failures other than "nothing pending" (out of descriptors, memory): accepting
    /// paused briefly each time instead of spinning.
    package var acceptFailures: UInt64

    package init(commandsAnswered: UInt64 = 0, refusedOverLong: UInt64 = 0, closedIdle: UInt64 = 0,
                refusedOverCap: UInt64 = 0, clientsGone: UInt64 = 0, acceptFailures: UInt64 = 0) {
        self.commandsAnswered = commandsAnswered
        self.refusedOverLong = refusedOverLong
        self.closedIdle = closedIdle
        self.refusedOverCap = refusedOverCap
        self.clientsGone = clientsGone
        self.acceptFailures = acceptFailures
    }
}
