import Foundation
import Shared

/// Forwards every flow the device opens to the real server (passthrough), TCP through a
/// `TCPRelayFlow` per connection and UDP datagram by datagram, and reinjects the answers as
/// datagrams built by `PacketEmitter`.
///
/// The spec's contract, not its actor: the tunnel's event loop owns the relay and calls it
/// synchronously for every packet and socket event — an actor hop per packet is the cost the
/// fast userspace relays avoid. Nothing here does I/O; the connector and `reinject` do.
///
/// The shell may report from inside one of the relay's own calls (a socket whose write fails
/// during `send`): the report waits and runs once that call is done, one event at a time.
package final class Relay {
    let connector: any RelayConnector
    /// Writes a datagram to the device; a TCP segment's `DeviceOffload` says what the device is
    /// to finish, with segmentation offload (nil: the datagram is whole).
    private let reinject: (UnsafeRawBufferPointer, DeviceOffload?) -> Void
    /// Every answer is laid out here and handed to `reinject` before the next: no allocation per
    /// segment. Sized for the largest datagram either family can carry.
    private var scratch = [UInt8](repeating: 0, count: PacketEmitter.datagramLimit(.v6))
    private let initialSequence: () -> UInt32
    private let config: TCPRelayFlow.Config
    var tcpFlows: [FlowKey: TCPFlowState] = [:]
    private var udpFlows: [FlowKey: UDPFlowState] = [:]
    package internal(set) var stats = RelayStats()
    /// Told what the TCP scanners learn about a flow from its two streams (the pipeline's
    /// `observe(_:for:)` in the tunnel). Without one, nothing is scanned.
    package var observer: ((FlowKey, [FlowFact]) -> Void)?
    /// TLS inspection, when the person asked for it; nil relays every flow untouched.
    package var inspection: RelayInspection? {
        didSet { if inspection != nil, stats.inspection == nil { stats.inspection = .zero } }
    }

    package init(connector: any RelayConnector, config: TCPRelayFlow.Config = TCPRelayFlow.Config(),
                 initialSequence: @escaping () -> UInt32 = { UInt32.random(in: .min ... .max) },
                 reinject: @escaping (UnsafeRawBufferPointer, DeviceOffload?) -> Void) {
        self.connector = connector
        self.config = config
        self.initialSequence = initialSequence
        self.reinject = reinject
    }

    /// A class, not a value: every packet reads and changes a few of its fields through
    /// `tcpFlows[key]`, and a value there would be copied whole — each of its buffers retained and
    /// released — on every such read (a tenth of the loop thread's time on an upload, by perf).
    /// The rule of `execute` still holds: a flow is always found afresh by its key.
    final class TCPFlowState {
        var flow: TCPRelayFlow
        var connection: (any RelayConnection)?
        var timer: TCPRelayFlow.RetransmitTimer?
        /// Until they settle: the bytes each way, each seen once, as they pass.
        var scanners: TCPFlowScanners?
        /// A TCP flow while inspection decides or terminates it; nil passes through.
        var inspection: FlowInspectionPhase?
        /// The ISN of the device's SYN that opened it; nil when it began with another segment.
        let openingSequence: UInt32?

        init(flow: TCPRelayFlow, scanners: TCPFlowScanners?, inspection: FlowInspectionPhase?, openingSequence: UInt32?) {
            self.flow = flow
            self.scanners = scanners
            self.inspection = inspection
            self.openingSequence = openingSequence
        }
    }

    private struct UDPFlowState {
        let device: IPEndpoint
        let server: IPEndpoint
        let connection: any RelayConnection
        /// The start of the flow's first datagram, for a "port unreachable" to quote: the device's
        /// stack finds the socket by its addresses and ports, which every datagram of the flow shares.
        let quote: Data
    }

    package var openFlowCount: Int { tcpFlows.count + udpFlows.count }

    // MARK: One event at a time

    /// Everything that changes the relay, as a value: an event that arrives while another is
    /// being carried out — a shell reporting from inside the relay's own call, a socket failing
    /// in the middle of `send` — waits in `queued` and runs after it, so no event ever sees a
    /// flow half-updated, whatever the shell does.
    private enum Event {
        case passthrough(ParsedPacket, Data)
        case refuse(ParsedPacket, Data)
        case connected(FlowKey)
        case received(FlowKey, Data)
        case closedSend(FlowKey)
        case failed(FlowKey)
        case refusedDatagram(FlowKey)
        case drained(FlowKey, Int)
        case timeout(FlowKey, generation: UInt32)
        case close(FlowKey)
        case closeAll
        /// A termination's records waiting for the device's window, after the event that made room.
        case flushToDevice(FlowKey)
    }

    private var inEvent = false
    /// Kept with its capacity: re-entry is rare, and then costs no allocation after the first.
    private var queued: [Event] = []

    /// Queues `flushToDevice` behind the event being run (there always is one: every caller is
    /// inside `handle`), so a termination's records never re-enter the flow mid-event.
    func scheduleFlush(_ key: FlowKey) { handle(.flushToDevice(key)) }

    private func handle(_ event: Event) {
        guard !inEvent else {
            queued.append(event)
            return
        }
        inEvent = true
        run(event)
        var next = 0
        while next < queued.count {        // an event run here may queue more
            let waiting = queued[next]
            next += 1
            run(waiting)
        }
        if next > 0 { queued.removeAll(keepingCapacity: true) }
        inEvent = false
    }

    private func run(_ event: Event) {
        switch event {
        case .passthrough(let packet, let datagram): relay(packet, datagram: datagram)
        case .refuse(let packet, let datagram): answerRefused(packet, datagram: datagram)
        case .connected(let key): tcpEvent(key) { $0.serverDidConnect() }
        case .received(let key, let data): received(data, for: key)
        case .closedSend(let key):
            if isTerminating(key) { terminationStep(key) { $0.serverEnded() } } else { tcpEvent(key) { $0.serverDidCloseSend() } }
        case .failed(let key): failed(key)
        case .refusedDatagram(let key): answerPortUnreachable(key)
        case .drained(let key, let count):
            if isTerminating(key) { upstreamDrained(key, count) } else { tcpEvent(key) { $0.serverDidDrain(byteCount: count) } }
        case .timeout(let key, let generation): tcpEvent(key) { $0.retransmitTimeout(generation: generation) }
        case .close(let key): forget(key)
        case .closeAll: for key in Array(tcpFlows.keys) + Array(udpFlows.keys) { forget(key) }
        case .flushToDevice(let key): flushToDevice(key)
        }
    }

    /// Relays one datagram the device sent. `datagram` is the bytes `packet` was parsed from,
    /// lent for this call (the tunnel's read buffer, read into again next): the relay and its
    /// connections copy whatever of it they keep.
    package func passthrough(_ packet: ParsedPacket, datagram: Data) { handle(.passthrough(packet, datagram)) }

    /// Refuses a datagram that would open a flow the flow table has no room for
    /// (`PacketDisposition.refused`): a TCP segment hears RST (a SYN: "connection refused"), a UDP
    /// datagram is dropped. No socket is opened, and a flow the relay holds is left alone.
    package func refuse(_ packet: ParsedPacket, datagram: Data) { handle(.refuse(packet, datagram)) }

    // MARK: Events from the shell

    package func serverDidConnect(_ key: FlowKey) { handle(.connected(key)) }
    package func serverDidReceive(_ key: FlowKey, _ data: Data) { handle(.received(key, data)) }
    package func serverDidCloseSend(_ key: FlowKey) { handle(.closedSend(key)) }
    package func serverDidFail(_ key: FlowKey) { handle(.failed(key)) }
    /// A UDP flow's socket reported ECONNREFUSED: the server's host has no socket on the port.
    package func serverRefusedDatagram(_ key: FlowKey) { handle(.refusedDatagram(key)) }
    package func serverDidDrain(_ key: FlowKey, byteCount: Int) { handle(.drained(key, byteCount)) }

    package func retransmitTimeout(for key: FlowKey, generation: UInt32) {
        handle(.timeout(key, generation: generation))
    }

    /// How many bytes the shell may read from `key`'s socket now.
    package func serverReadAllowance(_ key: FlowKey) -> Int {
        if udpFlows[key] != nil { return Int.max }
        guard let state = tcpFlows[key] else { return 0 }
        if case .terminating(let leg) = state.inspection {
            return max(0, state.flow.serverReadAllowance - leg.pendingToDevice.count)
        }
        return state.flow.serverReadAllowance
    }

    /// Forgets a flow the flow table ended, closing its socket.
    package func close(_ key: FlowKey) { handle(.close(key)) }

    /// Closes every flow: the tunnel is stopping.
    package func closeAll() { handle(.closeAll) }

    /// Gives back the room a burst of connections left (`UnusedCapacity`); the loop calls it
    /// between ticks.
    package func releaseUnusedCapacity() {
        tcpFlows.releaseUnusedCapacity()
        udpFlows.releaseUnusedCapacity()
    }

    // MARK: Carrying out

    private func relay(_ packet: ParsedPacket, datagram: Data) {
        let key = packet.flowKey
        if let tcp = packet.tcp {
            guard let segment = try? InboundSegment(tcp, in: datagram) else {
                stats.segmentsRefused += 1
                return
            }
            // A SYN of another connection on the 5-tuple (the device reused the port after an end
            // the relay missed) ends the old leg, as it ends the old lifetime in the flow table.
            if let old = tcpFlows[key], TCPConnectionStart.beginsAnotherConnection(
                flags: tcp.flags, sequence: tcp.sequence, openingSequence: old.openingSequence, previousEnded: false) {
                forget(key)
            }
            if tcpFlows[key] == nil {
                let flow = TCPRelayFlow(key: key, device: packet.source, server: packet.destination,
                                        config: config, initialSequence: SequenceNumber(initialSequence()))
                let opening = TCPConnectionStart.opensConnection(tcp.flags) ? tcp.sequence : nil
                tcpFlows[key] = TCPFlowState(flow: flow, scanners: observer == nil ? nil : TCPFlowScanners(),
                                             inspection: candidacy(key), openingSequence: opening)
            }
            tcpEvent(key) { $0.receiveFromDevice(segment) }
        } else if let udp = packet.udp {
            let payload = datagram[udp.payloadRange]
            if udpFlows[key] == nil {
                guard let connection = connector.openUDP(for: key, to: packet.destination) else {
                    stats.connectFailures += 1
                    return
                }
                let quote = Data(datagram.prefix(PacketEmitter.icmpErrorQuoteLimit(packet.source.address.version)))
                udpFlows[key] = UDPFlowState(device: packet.source, server: packet.destination, connection: connection, quote: quote)
                stats.udpFlowsOpened += 1
                if observer != nil { udpFlowOpened(key, firstPayload: payload, remotePort: udp.destinationPort) }
            }
            // DNS is counted apart: queries sent against replies received tells a resolver that does
            // not answer from one that is not asked.
            if udp.destinationPort == WellKnownPort.dns { stats.dnsQueriesSent += 1 }
            stats.bytesFromDevice += UInt64(payload.count)
            let connection = udpFlows[key]?.connection
            connection?.send(payload)
        }
        // ICMP and other protocols are recorded by the pipeline but not relayed: answering them
        // would need raw sockets in the host's namespace.
    }

    private func answerRefused(_ packet: ParsedPacket, datagram: Data) {
        guard let tcp = packet.tcp, let segment = try? InboundSegment(tcp, in: datagram),
              let reset = OutboundSegment.reset(answering: segment) else { return }
        emit(reset, from: packet.destination, to: packet.source)
    }

    private func received(_ data: Data, for key: FlowKey) {
        if udpFlows[key] != nil {
            serverDidReceiveDatagram(key, data)
        } else if isTerminating(key) {
            // The server's bytes answer our client leg, not the device's: nothing of them is
            // scanned (the upstream reading comes from the leg itself).
            terminationStep(key) { $0.fromServer(data) }
        } else {
            scan(data, fromClient: false, key)
            tcpEvent(key) { $0.receiveFromServer(data) }
        }
    }

    private func failed(_ key: FlowKey) {
        if let udp = udpFlows.removeValue(forKey: key) {
            udp.connection.cancel()
            return
        }
        // A terminated flow's server reset: the device is reset in turn, and the flow says so.
        if isTerminating(key) { return terminationStep(key) { $0.serverReset() } }
        tcpEvent(key) { $0.serverDidFail() }
    }

    /// A flow dropped before its connection ended (the table's expiry, a new connection on its
    /// 5-tuple, the tunnel stopping). While the device may still send, the server's leg is reset:
    /// the server is told the connection was cut, never that the client finished (an upload cut
    /// short must not read as a whole one). Once the device's FIN is in, the client did finish:
    /// the leg is closed as usual, and the kernel still delivers what it holds, then the FIN.
    func forget(_ key: FlowKey) {
        if let udp = udpFlows.removeValue(forKey: key) { udp.connection.cancel() }
        if let tcp = tcpFlows.removeValue(forKey: key) {
            stats.tcpFlowsClosed += 1
            if tcp.flow.acceptsDeviceData { tcp.connection?.reset() } else { tcp.connection?.cancel() }
            if tcp.timer != nil { connector.setRetransmitTimer(for: key, nil) }
        }
    }

    func tcpEvent(_ key: FlowKey, _ body: (inout TCPRelayFlow) -> [TCPRelayAction]) {
        guard let state = tcpFlows[key] else { return }
        let actions = body(&state.flow)
        execute(actions, for: key)
    }

    /// Carries out a flow's actions. The flow's state is read where it is needed and never held
    /// across a call into the shell (a connection, `reinject`, the observer): a copy kept over
    /// such a call and written back would undo whatever happened meanwhile — the flow a failing
    /// socket tore down would come back to life.
    private func execute(_ actions: [TCPRelayAction], for key: FlowKey) {
        // Fixed for the flow's life, so safe to keep.
        guard let opened = tcpFlows[key] else { return }
        let (server, device) = (opened.flow.server, opened.flow.device)
        for action in actions {
            guard tcpFlows.index(forKey: key) != nil else { return }
            switch action {
            case .connectToServer:
                stats.tcpFlowsOpened += 1
                let connection = connector.openTCP(for: key, to: server)
                tcpFlows[key]?.connection = connection
            case .sendToServer(let data):
                stats.bytesFromDevice += UInt64(data.count)
                if tcpFlows[key]?.scanners != nil { scan(data, fromClient: true, key) }
                if tcpFlows[key]?.inspection != nil {
                    inspectFromDevice(data, key)
                } else {
                    let connection = tcpFlows[key]?.connection
                    connection?.send(data)
                }
            case .closeServerSend:
                if tcpFlows[key]?.inspection != nil {
                    inspectDeviceEnded(key)
                } else {
                    let connection = tcpFlows[key]?.connection
                    connection?.shutdownWrite()
                }
            case .segmentToDevice(let segment):
                emit(segment, from: server, to: device)
            case .pauseServerReads:
                let connection = tcpFlows[key]?.connection
                connection?.setReading(false)
            case .resumeServerReads:
                // A termination's records wait for the window first; reads resume when they are out.
                if isTerminating(key), wantsFlushBeforeResuming(key) {
                    handle(.flushToDevice(key))
                    continue
                }
                let connection = tcpFlows[key]?.connection
                connection?.setReading(true)
            case .teardown(let ending):
                if ending == .deviceReset { inspectDeviceReset(key) }
                guard let state = tcpFlows.removeValue(forKey: key) else { return }
                if ending == .serverRefused { stats.connectFailures += 1 }
                if ending != .notASyn { stats.tcpFlowsClosed += 1 }
                if ending.resetsServer { state.connection?.reset() } else { state.connection?.cancel() }
                if state.timer != nil { connector.setRetransmitTimer(for: key, nil) }
                return
            }
        }
        // The flow says when it wants its timer; tell the shell only when that changed.
        guard let state = tcpFlows[key], state.timer != state.flow.retransmitTimer else { return }
        let timer = state.flow.retransmitTimer
        tcpFlows[key]?.timer = timer
        connector.setRetransmitTimer(for: key, timer)
    }

    /// Lays a segment out in `scratch` and hands it to `reinject`.
    private func emit(_ segment: OutboundSegment, from server: IPEndpoint, to device: IPEndpoint) {
        do {
            let byteCount = try segment.byteCount(source: server, destination: device)
            scratch.withUnsafeMutableBytes { buffer in
                let datagram = UnsafeMutableRawBufferPointer(rebasing: buffer[..<byteCount])
                if config.segmentationOffload {
                    segment.emit(into: datagram, source: server, destination: device, checksum: .partial)
                    reinject(UnsafeRawBufferPointer(datagram), segment.offload(from: server))
                } else {
                    segment.emit(into: datagram, source: server, destination: device)
                    reinject(UnsafeRawBufferPointer(datagram), nil)
                }
            }
            stats.bytesToDevice += UInt64(segment.payload.count)
        } catch {
            stats.emitterFailures += 1
        }
    }

    /// Feeds a stream's bytes to the flow's scanners and reports what they learned; settled
    /// scanners are dropped, so the rest of the flow costs one check per chunk.
    func scan(_ data: Data, fromClient: Bool, _ key: FlowKey) {
        guard var scanners = tcpFlows[key]?.scanners, let observer else { return }
        let abandoned = scanners.upgradeAbandoned
        let facts = data.withUnsafeBytes { fromClient ? scanners.client($0) : scanners.server($0) }
        if scanners.upgradeAbandoned && !abandoned { stats.plaintextUpgradesAbandoned += 1 }
        tcpFlows[key]?.scanners = scanners.isSettled ? nil : scanners
        var openedTLSUninspected = false
        for fact in facts {
            guard case .streamOpening(let opening) = fact else { continue }
            switch opening {
            case .tlsHandshake:
                stats.streamOpeningsTLS += 1
                // A candidate says for itself what became of it; any other TLS stream was not one.
                openedTLSUninspected = tcpFlows[key]?.inspection == nil
            case .httpRequest: stats.streamOpeningsHTTP += 1
            case .unrecognised: stats.streamOpeningsUnrecognised += 1
            case .smtpStartTLS, .imapStartTLS, .pop3STLS, .ftpAuthTLS, .xmppStartTLS, .ldapStartTLS, .postgresSSLRequest:
                // Counted once more: first as unrecognised, then as switched. Never inspected:
                // the relay decides at the stream's first bytes, and passes it through. With
                // inspection off that is said as for any TLS stream.
                stats.streamsUpgradedToTLS += 1
                openedTLSUninspected = inspection?.isEnabled != true
            }
        }
        if !facts.isEmpty { observer(key, facts) }
        if openedTLSUninspected { streamOpenedTLSUninspected(key) }
    }

    /// The server's host said no socket listens on the port (ECONNREFUSED on the flow's socket):
    /// the device is told as that host told us, so its sender fails at once instead of waiting
    /// out a timeout. The flow stays: a later datagram may find the port open.
    private func answerPortUnreachable(_ key: FlowKey) {
        guard let udp = udpFlows[key] else { return }
        do {
            let answer = try PacketEmitter.portUnreachable(from: udp.server.address, to: udp.device.address, quoting: udp.quote)
            answer.withUnsafeBytes { reinject($0, nil) }
            stats.portUnreachableAnswers += 1
        } catch {
            stats.emitterFailures += 1
        }
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
                reinject(UnsafeRawBufferPointer(datagram), nil)
            }
            stats.bytesToDevice += UInt64(data.count)
        } catch {
            stats.emitterFailures += 1
        }
    }
}
