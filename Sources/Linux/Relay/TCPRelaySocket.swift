#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PacketTunnel
import Posix
import Shared

/// One TCP leg's shell: carries out what `TCPRelaySocketState` decides, through the kernel seam,
/// and tells the relay. Reports go straight to the relay even from inside the relay's own call
/// (a `send` that fails): the relay runs an event that arrives mid-call after the call.
final class TCPRelaySocket: RelayConnection {
    let key: FlowKey
    unowned let connector: SocketRelayConnector
    private var socket: (any RelayStreamSocket)?
    private(set) var state = TCPRelaySocketState()

    init(key: FlowKey, connector: SocketRelayConnector) {
        self.key = key
        self.connector = connector
    }

    func start(_ server: IPEndpoint) {
        let started = connector.kernel.connect(server)
        socket = started?.0
        if started == nil { connector.stats.socketFailures += 1 } else { connector.stats.count(started?.1) }
        perform(state.started(started?.1))
    }

    // MARK: RelayConnection (called by the relay)

    func send(_ data: Data) {
        perform(state.enqueue(data))
        state.ownPending()
    }
    func shutdownWrite() { perform(state.requestShutdown()) }
    func setReading(_ enabled: Bool) { perform(state.setReading(enabled)) }
    func cancel() { perform(state.cancel()) }
    func reset() { perform(state.reset()) }

    // MARK: Carrying out

    /// The loop's call.
    private func ready(_ readiness: EventLoop.Readiness) { perform(state.ready(readiness)) }

    /// Each step reads `state` and `socket` afresh: a report may have reached the relay, and the
    /// relay this leg, in between. Nothing is reported after `failed`.
    private func perform(_ actions: TCPRelaySocketState.Actions, received: Data? = nil) {
        connector.loop.assertOnLoopThread()
        if let watch = actions.watch { self.watch(watch) }
        if actions.close { closeSocket(resetting: actions.reset) }
        if actions.shutdownWrite, let socket {
            // Counted only: a peer gone by now fails the next call, which closes the leg.
            do { try socket.shutdownWrite() } catch { connector.stats.count(error) }
        }
        if actions.finishConnect, let socket {
            let result = socket.finishConnect()
            connector.stats.count(result)
            perform(state.connectFinished(result))
        }
        if actions.write, let socket, !state.pending.isEmpty {
            let result = state.pending.withUnsafeBytes { socket.send($0) }
            if case .failed(let code) = result { connector.stats.count(SocketError(.send, errno: code)) }
            perform(state.wrote(result))
        }
        if actions.read, let socket { read(socket) }
        if let report = actions.report, report == .failed || state.phase != .closed { tell(report, received) }
    }

    private func watch(_ watch: TCPRelaySocketState.Watch) {
        guard let descriptor = socket?.descriptor else { return }
        let kernel = connector.kernel
        let accepted: Bool
        switch watch {
        case .register(let interest):
            accepted = kernel.register(descriptor, interest) { [weak self] readiness in self?.ready(readiness) }
        case .modify(let interest):
            accepted = kernel.modify(descriptor, interest)
        case .unregister:
            kernel.unregister(descriptor)
            accepted = true
        }
        if !accepted {
            connector.stats.watchFailures += 1
            perform(state.watchFailed())
        }
    }

    private func closeSocket(resetting: Bool) {
        guard let socket else { return }
        connector.kernel.unregister(socket.descriptor)   // refused, harmlessly, when not registered
        if resetting { socket.abort() } else { socket.close() }
        self.socket = nil
    }

    private func read(_ socket: any RelayStreamSocket) {
        guard state.mayRead, let relay = connector.relay else { return }
        let allowance = min(relay.serverReadAllowance(key), SocketRelayConnector.readLimit)
        guard allowance > 0 else { return }
        // The bytes are read straight into the buffer the relay keeps until the device
        // acknowledges them (`ByteQueue` holds chunks as read): no copy, and no zero-filling.
        guard let storage = malloc(allowance) else { return }
        let result = socket.receive(into: UnsafeMutableRawBufferPointer(start: storage, count: allowance))
        guard case .received(let count) = result else {
            if case .failed(let code) = result { connector.stats.count(SocketError(.receive, errno: code)) }
            free(storage)
            perform(state.received(result))
            return
        }
        // A short read gives back what it did not use.
        let kept = count < allowance / 2 ? (realloc(storage, count) ?? storage) : storage
        perform(state.received(result), received: Data(bytesNoCopy: kept, count: count, deallocator: .free))
    }

    private func tell(_ report: TCPRelaySocketState.Report, _ received: Data?) {
        guard let relay = connector.relay else { return }
        switch report {
        case .connected: relay.serverDidConnect(key)
        case .drained(let count): relay.serverDidDrain(key, byteCount: count)
        case .received: if let received { relay.serverDidReceive(key, received) }
        case .endOfStream: relay.serverDidCloseSend(key)
        case .failed: relay.serverDidFail(key)
        }
    }
}
