import Foundation
import Shared

/// One outbound leg of a relayed flow, as the shell provides it (a non-blocking socket in the
/// host's namespace). What happens on it comes back through the `Relay`'s `server…` methods —
/// at once, even from inside one of these calls: the relay runs such a report after the call.
package protocol RelayConnection: AnyObject {
    /// TCP: bytes for the server; the shell writes what the socket takes, keeps the rest, and
    /// reports each write with `Relay.serverDidDrain`. UDP: one datagram. The bytes may be lent
    /// (the device's read buffer, `Relay.passthrough`): what is kept past the call is copied.
    func send(_ data: Data)
    /// TCP half-close (`shutdown(SHUT_WR)`), after the bytes already given.
    func shutdownWrite()
    /// Back-pressure toward the server: stop or resume reading the socket.
    func setReading(_ enabled: Bool)
    /// Closes the socket; nothing more is reported for it.
    func cancel()
    /// TCP: closes the socket with a reset, so the server reads the reset the device sent (or the
    /// end the relay forced on it), not an end of stream; nothing more is reported for it. UDP: `cancel`.
    func reset()
}

/// The seam the relay opens its legs and arms its timers through: the socket shell in the
/// product, a scripted double in tests.
package protocol RelayConnector: AnyObject {
    /// Starts a non-blocking connect to `server` for `key`; `Relay.serverDidConnect` or
    /// `serverDidFail` follows.
    func openTCP(for key: FlowKey, to server: IPEndpoint) -> any RelayConnection
    /// A socket connected to `server` for `key`'s datagrams; nil when none could be made.
    func openUDP(for key: FlowKey, to server: IPEndpoint) -> (any RelayConnection)?
    /// Arms `key`'s retransmit timer (replacing any), or disarms it with nil; when it fires the
    /// shell calls `Relay.retransmitTimeout(for:generation:)`.
    func setRetransmitTimer(for key: FlowKey, _ timer: TCPRelayFlow.RetransmitTimer?)
}
