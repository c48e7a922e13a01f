#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PacketTunnel
import Posix
import Shared

/// The relay's outbound legs as real non-blocking sockets in the host's namespace, driven by the
/// tunnel's event loop, and its retransmit timers as the loop's timers.
///
/// Reports go back to the `Relay` — but never from inside a call the relay is making (its state
/// is mid-update then): those are deferred and delivered by `deliverDeferred()`, which the
/// runtime calls after every entry into the relay.
package final class SocketRelayConnector: RelayConnector {
    let loop: EventLoop
    /// Set once, right after the relay is made (the relay needs the connector first).
    package var relay: Relay?
    private var timers: [FlowKey: TimerID] = [:]
    private var deferred: [(Relay) -> Void] = []
    /// One buffer for every read: the loop is one thread.
    var readBuffer = [UInt8](repeating: 0, count: 65_536)
    package private(set) var socketFailures: UInt64 = 0

    package init(loop: EventLoop) {
        self.loop = loop
    }

    package func openTCP(for key: FlowKey, to server: IPEndpoint) -> any RelayConnection {
        let connection = TCPRelaySocket(key: key, connector: self)
        connection.start(server)
        return connection
    }

    package func openUDP(for key: FlowKey, to server: IPEndpoint) -> (any RelayConnection)? {
        guard let socket = try? UDPSocket(connectingTo: server) else {
            socketFailures += 1
            return nil
        }
        let connection = UDPRelaySocket(key: key, socket: socket, connector: self)
        do {
            try loop.register(socket.descriptor, interest: .read) { [weak connection] _ in connection?.readable() }
        } catch {
            socket.close()
            socketFailures += 1
            return nil
        }
        return connection
    }

    package func setRetransmitTimer(for key: FlowKey, _ timer: TCPRelayFlow.RetransmitTimer?) {
        if let existing = timers.removeValue(forKey: key) { loop.cancel(existing) }
        guard let timer else { return }
        timers[key] = loop.schedule(after: timer.interval) { [weak self] in
            guard let self else { return }
            self.timers[key] = nil
            self.relay?.retransmitTimeout(for: key, generation: timer.generation)
            self.deliverDeferred()
        }
    }

    /// Queues a report for the relay, for when it is not in the middle of a call.
    func later(_ report: @escaping (Relay) -> Void) { deferred.append(report) }

    /// Delivers the queued reports (and any they cause), in order.
    package func deliverDeferred() {
        guard let relay else { return }
        while !deferred.isEmpty {
            let reports = deferred
            deferred.removeAll(keepingCapacity: true)
            for report in reports { report(relay) }
        }
    }

    /// Reports from a socket's own readiness (not inside a relay call): delivered now.
    func now(_ report: (Relay) -> Void) {
        guard let relay else { return }
        report(relay)
        deliverDeferred()
    }
}

/// One TCP leg: connect, write what the socket takes and keep the rest, read within the relay's
/// allowance, half-close after the queued bytes.
final class TCPRelaySocket: RelayConnection {
    let key: FlowKey
    unowned let connector: SocketRelayConnector
    var socket: TCPSocket?
    var connected = false
    var pending = Data()
    var shutdownRequested = false
    var reading = true
    var endOfStream = false
    var registered = false

    init(key: FlowKey, connector: SocketRelayConnector) {
        self.key = key
        self.connector = connector
    }

    func start(_ server: IPEndpoint) {
        let key = key
        guard let (socket, result) = try? TCPSocket.connect(to: server) else {
            connector.later { $0.serverDidFail(key) }
            return
        }
        self.socket = socket
        switch result {
        case .connected:
            connected = true
            updateInterest()
            connector.later { $0.serverDidConnect(key) }
        case .inProgress:
            updateInterest()
        case .failed:
            cancel()
            connector.later { $0.serverDidFail(key) }
        }
    }

    private var interest: EventLoop.Interest {
        guard connected else { return .write }   // a connect completes as writable (or in error)
        var interest: EventLoop.Interest = []
        if reading && !endOfStream { interest.insert(.read) }
        if !pending.isEmpty { interest.insert(.write) }
        return interest
    }

    private func updateInterest() {
        guard let socket else { return }
        let descriptor = socket.descriptor
        do {
            if registered {
                try connector.loop.modify(descriptor, interest: interest)
            } else {
                try connector.loop.register(descriptor, interest: interest) { [weak self] readiness in
                    self?.ready(readiness)
                }
                registered = true
            }
        } catch {
            fail()
        }
    }

    /// The loop's call, never inside one of the relay's: what it caused is reported when it ends.
    private func ready(_ readiness: EventLoop.Readiness) {
        defer { connector.deliverDeferred() }
        guard let socket else { return }
        let key = key
        if !connected {
            switch socket.finishConnect() {
            case .connected:
                connected = true
                updateInterest()
                connector.now { $0.serverDidConnect(key) }
            case .inProgress:
                return
            case .failed:
                fail()
            }
            return
        }
        if readiness.contains(.writable) { flush(deferReport: false) }
        if readiness.contains(.readable) || readiness.contains(.hangup) || readiness.contains(.error) { read() }
    }

    private func read() {
        guard let socket, reading, !endOfStream else { return }
        let key = key
        let allowance = min(connector.relay?.serverReadAllowance(key) ?? 0, connector.readBuffer.count)
        guard allowance > 0 else { return }
        // The bytes are read straight into the buffer the relay keeps until the device
        // acknowledges them (`ByteQueue` holds chunks as read): no copy, and no zero-filling.
        guard let storage = malloc(allowance) else { return }
        let result = socket.receive(into: UnsafeMutableRawBufferPointer(start: storage, count: allowance))
        if case .received = result {} else { free(storage) }
        switch result {
        case .received(let count):
            // A short read gives back what it did not use.
            let kept = count < allowance / 2 ? (realloc(storage, count) ?? storage) : storage
            let data = Data(bytesNoCopy: kept, count: count, deallocator: .free)
            connector.now { $0.serverDidReceive(key, data) }
        case .endOfStream:
            endOfStream = true
            updateInterest()
            connector.now { $0.serverDidCloseSend(key) }
        case .wouldBlock:
            break
        case .failed:
            fail()
        }
    }

    /// Writes what the socket takes. Inside a relay call the drain report waits.
    private func flush(deferReport: Bool) {
        guard let socket, connected, !pending.isEmpty else { return }
        let result = pending.withUnsafeBytes { socket.send($0) }
        switch result {
        case .processed(let count):
            pending.removeFirst(count)
            let key = key
            if deferReport { connector.later { $0.serverDidDrain(key, byteCount: count) } }
            else { connector.now { $0.serverDidDrain(key, byteCount: count) } }
            if pending.isEmpty && shutdownRequested { try? socket.shutdownWrite() }
            updateInterest()
        case .wouldBlock:
            updateInterest()
        case .failed:
            fail()
        }
    }

    /// Reported later, never at once: inside a relay call (a `send`), the relay is mid-update.
    private func fail() {
        let key = key
        cancel()
        connector.later { $0.serverDidFail(key) }
    }

    // MARK: RelayConnection (called by the relay)

    func send(_ data: Data) {
        // Usually nothing waits: take the bytes as they are instead of copying them in.
        if pending.isEmpty { pending = data } else { pending.append(data) }
        if connected { flush(deferReport: true) }
    }

    func shutdownWrite() {
        shutdownRequested = true
        if pending.isEmpty, connected { try? socket?.shutdownWrite() }
    }

    func setReading(_ enabled: Bool) {
        reading = enabled
        if connected { updateInterest() }
    }

    func cancel() {
        guard let socket else { return }
        if registered { try? connector.loop.unregister(socket.descriptor) }
        socket.close()
        self.socket = nil
    }
}

/// One UDP leg: datagrams out as they come, datagrams back as the socket delivers them.
final class UDPRelaySocket: RelayConnection {
    let key: FlowKey
    var socket: UDPSocket?
    unowned let connector: SocketRelayConnector

    init(key: FlowKey, socket: UDPSocket, connector: SocketRelayConnector) {
        self.key = key
        self.socket = socket
        self.connector = connector
    }

    func readable() {
        guard let socket else { return }
        let key = key
        // Up to a few datagrams per turn; the loop comes back for the rest (level-triggered).
        for _ in 0..<16 {
            let result = connector.readBuffer.withUnsafeMutableBytes { socket.receive(into: $0) }
            guard case .processed(let count) = result else { return }
            let data = Data(connector.readBuffer[..<count])
            connector.now { $0.serverDidReceive(key, data) }
            guard self.socket != nil else { return }
        }
    }

    func send(_ data: Data) {
        guard let socket else { return }
        _ = data.withUnsafeBytes { socket.send($0) }   // a datagram that cannot go is lost, as on the wire
    }

    func shutdownWrite() {}
    func setReading(_ enabled: Bool) {}

    func cancel() {
        guard let socket else { return }
        try? connector.loop.unregister(socket.descriptor)
        socket.close()
        self.socket = nil
    }
}
