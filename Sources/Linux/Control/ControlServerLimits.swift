/// How much of the tunnel one local program may hold through the control socket. The control
/// server runs on the tunnel's event loop, so every byte and every second it gives a client is
/// taken from the data path; these bounds make a flood of clients cost a fixed, small amount.
package struct ControlServerLimits: Sendable, Equatable {
    /// The longest command line, newline excluded. The longest command this program sends is under
    /// 70 bytes; 4 KiB leaves room for any future one while bounding a connection's buffer.
    package var maximumCommandBytes: Int
    /// How long one connection may take for its whole exchange — command in, reply out. A real
    /// client sends its line at once and reads a reply of a few KiB in milliseconds; a few seconds
    /// is hundreds of times that, yet frees a slot held by a client that sends nothing, half a
    /// line, or never reads, before it can matter. Counted from the accept, not reset by bytes, so
    /// a byte a second does not keep a connection alive.
    package var exchangeDeadline: Duration
    /// Connections served at once. Commands are answered in one turn of the loop, so even a
    /// dashboard and several scripts polling need a handful; 32 bounds the buffers (32 × 4 KiB) and
    /// descriptors a flood can hold.
    package var maximumConnections: Int
    /// Connections taken from the backlog per readiness, so a burst of connects is spread over
    /// turns of the loop and the device and relay sockets are served in between.
    package var acceptBurst: Int
    /// The kernel's queue of connections not yet accepted.
    package var listenBacklog: Int32
    /// After accept(2) fails for want of descriptors or memory, how long the listener is left
    /// alone: level-triggered, it would otherwise be reported ready on every turn and spin the loop.
    package var acceptRetryDelay: Duration

    package init(maximumCommandBytes: Int, exchangeDeadline: Duration, maximumConnections: Int, acceptBurst: Int,
                 listenBacklog: Int32, acceptRetryDelay: Duration) {
        self.maximumCommandBytes = maximumCommandBytes
        self.exchangeDeadline = exchangeDeadline
        self.maximumConnections = maximumConnections
        self.acceptBurst = acceptBurst
        self.listenBacklog = listenBacklog
        self.acceptRetryDelay = acceptRetryDelay
    }

    package static let standard = ControlServerLimits(
        maximumCommandBytes: 4096, exchangeDeadline: .seconds(3), maximumConnections: 32,
        acceptBurst: 16, listenBacklog: 64, acceptRetryDelay: .milliseconds(100))

    /// Whether a connection accepted now may be served, with `open` already being served.
    /// Over the cap the connection is accepted and closed at once with an error line rather than
    /// left in the backlog: a listener left readable would spin the level-triggered loop unless it
    /// were unwatched, and then a waiting client would hang until its own timeout instead of
    /// being told why.
    package func admits(open: Int) -> Bool { open < maximumConnections }
}
