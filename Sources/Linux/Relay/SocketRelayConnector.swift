import Foundation
import PacketTunnel
import Posix
import Shared

/// The relay's outbound legs as real non-blocking sockets in the host's namespace, driven by the
/// tunnel's event loop, and its retransmit timers as the loop's timers.
///
/// Reports go to the `Relay` as they happen, even from inside a call the relay is making (a
/// `send` whose write fails): the relay runs an event that arrives mid-call after the call, so
/// the shell needs no queue of its own and no one has to remember to deliver one.
package final class SocketRelayConnector: RelayConnector {
    /// Bytes read from a TCP socket at once, at most (within the relay's allowance). Each read is
    /// one event through the relay, and for an inspected flow one call into each TLS leg: 256 KiB
    /// rather than 64 KiB spreads that over 16 records instead of 4. Measured on a 2-core VM, 1 GiB
    /// through run --inspect: the loop thread's work per byte −14 %, download +12 % (355/326/316 →
    /// 404/361/360 MB/s); plain run and new connections/s unchanged; 128 KiB gave about the same,
    /// 512 KiB nothing more.
    static let readLimit = 262_144

    let loop: EventLoop
    let kernel: RelaySocketKernel
    /// Set once, right after the relay is made (the relay needs the connector first). Weak: the
    /// relay holds its connector.
    package weak var relay: Relay?
    private var timers: [FlowKey: TimerID] = [:]
    /// One buffer for every UDP read: the loop is one thread.
    var readBuffer = [UInt8](repeating: 0, count: 65_536)
    /// What the sockets refused; its legs count into it (loop thread).
    package internal(set) var stats = ShellStats.Sockets()

    /// The mark every socket of the relay carries (a routed target's rules send marked sockets
    /// by the target's own routes), or nil.
    let mark: UInt32?

    /// `kernel` defaults to the system's sockets on `loop`, carrying `mark`; tests script it.
    package init(loop: EventLoop, kernel: RelaySocketKernel? = nil, mark: UInt32? = nil) {
        self.loop = loop
        self.mark = mark
        self.kernel = kernel ?? .system(loop, mark: mark)
    }

    /// Retransmit timers armed now (for the diagnostics and the tests).
    package var armedTimerCount: Int { timers.count }

    package func openTCP(for key: FlowKey, to server: IPEndpoint) -> any RelayConnection {
        loop.assertOnLoopThread()
        let connection = TCPRelaySocket(key: key, connector: self)
        connection.start(server)
        return connection
    }

    package func openUDP(for key: FlowKey, to server: IPEndpoint) -> (any RelayConnection)? {
        loop.assertOnLoopThread()
        let socket: UDPSocket
        do { socket = try UDPSocket(connectingTo: server, mark: mark) } catch {
            stats.count(error)
            return nil
        }
        let connection = UDPRelaySocket(key: key, socket: socket, connector: self)
        do {
            try loop.register(socket.descriptor, interest: .read) { [weak connection] _ in connection?.readable() }
        } catch {
            socket.close()
            stats.watchFailures += 1
            return nil
        }
        return connection
    }

    package func setRetransmitTimer(for key: FlowKey, _ timer: TCPRelayFlow.RetransmitTimer?) {
        loop.assertOnLoopThread()
        if let existing = timers.removeValue(forKey: key) { loop.cancel(existing) }
        guard let timer else { return }
        timers[key] = loop.schedule(after: timer.interval) { [weak self] in
            guard let self else { return }
            self.timers[key] = nil
            self.relay?.retransmitTimeout(for: key, generation: timer.generation)
        }
    }
}
