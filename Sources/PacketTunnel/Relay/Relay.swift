import Foundation
import Shared

/// Forwards every flow the device opens to the real server (passthrough), TCP through a
/// `TCPRelayFlow` per connection and UDP datagram by datagram, and reinjects the answers as
/// datagrams built by `PacketEmitter`.
///
/// The spec's contract, not its actor: the tunnel's event loop owns the relay and calls it
/// synchronously for every packet and socket event — an actor hop per packet is the cost the
/// fast userspace relays avoid. Nothing here does I/O; the connector and `reinject` do.
package final class Relay {
    private let connector: any RelayConnector
    private let reinject: (UnsafeRawBufferPointer) -> Void
    /// Every answer is laid out here and handed to `reinject` before the next: no allocation per
    /// segment. Sized for the largest datagram either family can carry.
    private var scratch = [UInt8](repeating: 0, count: PacketEmitter.datagramLimit(.v6))
    private let initialSequence: () -> UInt32
    private let config: TCPRelayFlow.Config
    private var tcpFlows: [FlowKey: TCPFlowState] = [:]
    private var udpFlows: [FlowKey: UDPFlowState] = [:]
    package private(set) var stats = RelayStats()
    /// Told what the TCP scanners learn about a flow from its two streams (the pipeline's
    /// `observe(_:for:)` in the tunnel). Without one, nothing is scanned.
    package var observer: ((FlowKey, [FlowFact]) -> Void)?

    package init(connector: any RelayConnector, config: TCPRelayFlow.Config = TCPRelayFlow.Config(),
                 initialSequence: @escaping () -> UInt32 = { UInt32.random(in: .min ... .max) },
                 reinject: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.connector = connector
        self.config = config
        self.initialSequence = initialSequence
        self.reinject = reinject
    }

    private struct TCPFlowState {
        var flow: TCPRelayFlow
        var connection: (any RelayConnection)?
        var timer: TCPRelayFlow.RetransmitTimer?
        /// Until they settle: the bytes each way, each seen once, as they pass.
        var scanners: TCPFlowScanners?
    }

    private struct UDPFlowState {
        let device: IPEndpoint
        let server: IPEndpoint
        let connection: any RelayConnection
    }

    package var openFlowCount: Int { tcpFlows.count + udpFlows.count }

    /// Relays one datagram the device sent. `datagram` is the bytes `packet` was parsed from.
    package func passthrough(_ packet: ParsedPacket, datagram: Data) {
        let key = packet.flowKey
        if let tcp = packet.tcp {
            guard let segment = try? InboundSegment(tcp, in: datagram) else {
                stats.segmentsRefused += 1
                return
            }
            if tcpFlows[key] == nil {
                let flow = TCPRelayFlow(key: key, device: packet.source, server: packet.destination,
                                        config: config, initialSequence: SequenceNumber(initialSequence()))
                tcpFlows[key] = TCPFlowState(flow: flow, scanners: observer == nil ? nil : TCPFlowScanners())
            }
            let actions = tcpFlows[key]!.flow.receiveFromDevice(segment)
            execute(actions, for: key)
        } else if let udp = packet.udp {
            let payload = datagram[udp.payloadRange]
            if udpFlows[key] == nil {
                guard let connection = connector.openUDP(for: key, to: packet.destination) else {
                    stats.connectFailures += 1
                    return
                }
                udpFlows[key] = UDPFlowState(device: packet.source, server: packet.destination, connection: connection)
                stats.udpFlowsOpened += 1
            }
            // DNS is counted apart: queries sent against replies received tells a resolver that does
            // not answer from one that is not asked.
            if udp.destinationPort == WellKnownPort.dns { stats.dnsQueriesSent += 1 }
            stats.bytesFromDevice += UInt64(payload.count)
            udpFlows[key]!.connection.send(Data(payload))
        }
        // ICMP and other protocols are recorded by the pipeline but not relayed: answering them
        // would need raw sockets in the host's namespace.
    }

    // MARK: Events from the shell

    package func serverDidConnect(_ key: FlowKey) { event(key) { $0.serverDidConnect() } }

    package func serverDidReceive(_ key: FlowKey, _ data: Data) {
        if udpFlows[key] != nil {
            serverDidReceiveDatagram(key, data)
        } else {
            scan(data, fromClient: false, key)
            event(key) { $0.receiveFromServer(data) }
        }
    }

    package func serverDidCloseSend(_ key: FlowKey) { event(key) { $0.serverDidCloseSend() } }

    package func serverDidFail(_ key: FlowKey) {
        if let udp = udpFlows.removeValue(forKey: key) {
            udp.connection.cancel()
            return
        }
        event(key) { $0.serverDidFail() }
    }

    package func serverDidDrain(_ key: FlowKey, byteCount: Int) { event(key) { $0.serverDidDrain(byteCount: byteCount) } }

    package func retransmitTimeout(for key: FlowKey, generation: UInt32) {
        event(key) { $0.retransmitTimeout(generation: generation) }
    }

    /// How many bytes the shell may read from `key`'s socket now.
    package func serverReadAllowance(_ key: FlowKey) -> Int {
        if udpFlows[key] != nil { return Int.max }
        return tcpFlows[key]?.flow.serverReadAllowance ?? 0
    }

    /// Forgets a flow the flow table ended, closing its socket.
    package func close(_ key: FlowKey) {
        if let udp = udpFlows.removeValue(forKey: key) { udp.connection.cancel() }
        if let tcp = tcpFlows.removeValue(forKey: key) {
            tcp.connection?.cancel()
            if tcp.timer != nil { connector.setRetransmitTimer(for: key, nil) }
            stats.tcpFlowsClosed += 1
        }
    }

    /// Closes every flow: the tunnel is stopping.
    package func closeAll() {
        for key in Array(tcpFlows.keys) + Array(udpFlows.keys) { close(key) }
    }

    // MARK: Carrying out

    private func event(_ key: FlowKey, _ body: (inout TCPRelayFlow) -> [TCPRelayAction]) {
        guard tcpFlows[key] != nil else { return }
        let actions = body(&tcpFlows[key]!.flow)
        execute(actions, for: key)
    }

    private func execute(_ actions: [TCPRelayAction], for key: FlowKey) {
        for action in actions {
            guard var state = tcpFlows[key] else { return }
            switch action {
            case .connectToServer:
                state.connection = connector.openTCP(for: key, to: state.flow.server)
                stats.tcpFlowsOpened += 1
            case .sendToServer(let data):
                stats.bytesFromDevice += UInt64(data.count)
                state.connection?.send(data)
                if state.scanners != nil {
                    tcpFlows[key] = state
                    scan(data, fromClient: true, key)
                    guard let scanned = tcpFlows[key] else { return }
                    state = scanned
                }
            case .closeServerSend:
                state.connection?.shutdownWrite()
            case .segmentToDevice(let segment):
                do {
                    let byteCount = try segment.byteCount(source: state.flow.server, destination: state.flow.device)
                    scratch.withUnsafeMutableBytes { buffer in
                        let datagram = UnsafeMutableRawBufferPointer(rebasing: buffer[..<byteCount])
                        segment.emit(into: datagram, source: state.flow.server, destination: state.flow.device)
                        reinject(UnsafeRawBufferPointer(datagram))
                    }
                    stats.bytesToDevice += UInt64(segment.payload.count)
                } catch {
                    stats.emitterFailures += 1
                }
            case .pauseServerReads:
                state.connection?.setReading(false)
            case .resumeServerReads:
                state.connection?.setReading(true)
            case .teardown(let ending):
                state.connection?.cancel()
                if state.timer != nil { connector.setRetransmitTimer(for: key, nil) }
                tcpFlows[key] = nil
                if ending == .serverRefused { stats.connectFailures += 1 }
                if ending != .notASyn { stats.tcpFlowsClosed += 1 }
                return
            }
            tcpFlows[key] = state
        }
        // The flow says when it wants its timer; tell the shell only when that changed.
        guard var state = tcpFlows[key], state.timer != state.flow.retransmitTimer else { return }
        state.timer = state.flow.retransmitTimer
        tcpFlows[key] = state
        connector.setRetransmitTimer(for: key, state.timer)
    }

    /// Feeds a stream's bytes to the flow's scanners and reports what they learned; settled
    /// scanners are dropped, so the rest of the flow costs one check per chunk.
    private func scan(_ data: Data, fromClient: Bool, _ key: FlowKey) {
        guard var scanners = tcpFlows[key]?.scanners, let observer else { return }
        let facts = data.withUnsafeBytes { fromClient ? scanners.client($0) : scanners.server($0) }
        tcpFlows[key]?.scanners = scanners.isSettled ? nil : scanners
        for fact in facts {
            guard case .streamOpening(let opening) = fact else { continue }
            switch opening {
            case .tlsHandshake: stats.streamOpeningsTLS += 1
            case .httpRequest: stats.streamOpeningsHTTP += 1
            case .unrecognised: stats.streamOpeningsUnrecognised += 1
            }
        }
        if !facts.isEmpty { observer(key, facts) }
    }

    private func serverDidReceiveDatagram(_ key: FlowKey, _ data: Data) {
        guard let udp = udpFlows[key] else { return }
        if udp.server.port == WellKnownPort.dns { stats.dnsRepliesReceived += 1 }
        do {
            let byteCount = try PacketEmitter.udpByteCount(source: udp.server, destination: udp.device,
                                                           payloadCount: data.count)
            scratch.withUnsafeMutableBytes { buffer in
                let datagram = UnsafeMutableRawBufferPointer(rebasing: buffer[..<byteCount])
                PacketEmitter.udp(into: datagram, source: udp.server, destination: udp.device, payload: data)
                reinject(UnsafeRawBufferPointer(datagram))
            }
            stats.bytesToDevice += UInt64(data.count)
        } catch {
            stats.emitterFailures += 1
        }
    }
}
