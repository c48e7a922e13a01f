import Foundation
import Shared

/// The relay hookup of TLS inspection (the relay-and-TLS seed, "the relay hookup"): a TCP/443 flow
/// opens as a candidate — its plain connection to the server made as for any flow, so the device's
/// SYN-ACK stays faithful — and its first bytes are held until the ClientHello is read. Then either
/// the swap (a `TLSTerminationConnection` takes the same socket as its upstream transport) or the
/// release (the held bytes go out untouched, and the flow is plain passthrough from there).
extension Relay {
    /// A new TCP flow's phase: a candidate when inspection may apply to it.
    func candidacy(_ key: FlowKey, server: IPEndpoint) -> FlowInspectionPhase? {
        guard let inspection, TLSInterceptionPolicy.isCandidate(key, server: server, inspectionEnabled: inspection.isEnabled)
        else { return nil }
        return .candidate(held: Data(), scanner: ClientHelloScanner())
    }

    func isTerminating(_ key: FlowKey) -> Bool {
        if case .terminating = tcpFlows[key]?.inspection { true } else { false }
    }

    // MARK: The device's stream

    func inspectFromDevice(_ data: Data, _ key: FlowKey) {
        switch tcpFlows[key]?.inspection {
        case .candidate(var held, var scanner):
            held.append(data)
            let outcome = scanner.scan(data)
            tcpFlows[key]?.inspection = .candidate(held: held, scanner: scanner)
            switch outcome {
            case .needMoreBytes: return
            case .found(let sni): attempt(key, sni: sni, offer: scanner.offer, held: held)
            case .unavailable: release(key, held)     // not TLS, or no name to mint for
            }
        case .terminating(var leg):
            leg.owedDrain += data.count
            tcpFlows[key]?.inspection = .terminating(leg)
            terminationStep(key) { $0.fromDevice(data) }
        case nil:
            return
        }
    }

    func inspectDeviceEnded(_ key: FlowKey) {
        switch tcpFlows[key]?.inspection {
        case .candidate(let held, _):
            release(key, held)
            let connection = tcpFlows[key]?.connection
            connection?.shutdownWrite()
        case .terminating(var leg):
            leg.deviceFinished = true
            tcpFlows[key]?.inspection = .terminating(leg)
            terminationStep(key) { $0.deviceEnded() }
        case nil:
            return
        }
    }

    /// The ClientHello named `sni`: the gate, then the swap — or the release, untouched.
    private func attempt(_ key: FlowKey, sni: String, offer: ClientTLSOffer?, held: Data) {
        guard let inspection else { return release(key, held) }
        switch TLSInterceptionPolicy.gate(caReady: inspection.caReady(), clientHelloSNI: sni, pinned: inspection.pinned) {
        case .abort(let reason):
            if reason == .pinnedHost { stats.inspection?.pinnedHostSkips += 1 }
            if let status = TLSInterceptionPolicy.status(for: reason) { observer?(key, [.inspection(status)]) }
            release(key, held)
        case .attempt(let host):
            stats.inspection?.inspectionCandidates += 1
            let termination: TLSTerminationConnection
            do {
                termination = try TLSTerminationConnection(host: host, applicationProtocols: offer?.applicationProtocols ?? [],
                                                            factory: inspection.factory)
            } catch {
                stats.inspection?.inspectionsAbandoned += 1
                return release(key, held)
            }
            stats.inspection?.terminationsOpened += 1
            var leg = TerminationLeg(termination: termination)
            leg.owedDrain = held.count
            tcpFlows[key]?.inspection = .terminating(leg)
            terminationStep(key) { $0.start() }
            terminationStep(key) { $0.fromDevice(held) }
        }
    }

    /// Back to plain passthrough: the held bytes go to the server as they came.
    private func release(_ key: FlowKey, _ held: Data) {
        tcpFlows[key]?.inspection = nil
        guard !held.isEmpty else { return }
        let connection = tcpFlows[key]?.connection
        connection?.send(held)
    }

    // MARK: The termination's steps

    /// Runs one event of `key`'s termination and carries out what it asks, in its order.
    func terminationStep(_ key: FlowKey, _ body: (TLSTerminationConnection) -> TLSTerminationStep) {
        guard case .terminating(var leg) = tcpFlows[key]?.inspection else { return }
        let step = body(leg.termination)
        let connection = tcpFlows[key]?.connection
        if !step.toServer.isEmpty {
            leg.upstreamUnsent += step.toServer.count
            tcpFlows[key]?.inspection = .terminating(leg)
            connection?.send(step.toServer)
        }
        for piece in step.plaintext { inspection?.keepPlaintext?(key, piece) }
        if let upstream = step.upstreamTLS { observer?(key, [.serverAnswer(.negotiated(upstream))]) }
        if let outcome = step.outcome { record(outcome, host: leg.termination.host, key) }
        if step.closeServerSend { connection?.shutdownWrite() }
        switch step.ending {
        case .abort?:
            tcpFlows[key]?.inspection = nil
            tcpEvent(key) { $0.serverDidFail() }       // RST to the device, teardown
            return
        case .rollback(let held)?:
            return rollback(key, held)
        case nil:
            break
        }
        guard case .terminating(var current) = tcpFlows[key]?.inspection else { return }
        if !step.toDevice.isEmpty { current.pendingToDevice.append(step.toDevice) }
        if step.closeDeviceSend { current.closeDeviceWhenFlushed = true }
        tcpFlows[key]?.inspection = .terminating(current)
        if !step.toDevice.isEmpty || step.closeDeviceSend { scheduleFlush(key) }
        settleDrain(key)
    }

    private func record(_ outcome: TLSTerminationOutcome, host: String, _ key: FlowKey) {
        switch TLSInterceptionPolicy.decide(outcome) {
        case .inspected:
            stats.inspection?.flowsInspected += 1
            observer?(key, [.inspection(.inspected)])
        case .notInspectable:
            stats.inspection?.flowsPinned += 1
            inspection?.pinned.remember(host)
            observer?(key, [.inspection(.notInspectable)])
        case .fail(let error):
            stats.inspection?.terminationsFailed += 1
            if case .handshakeWithServerFailed(let reason) = error { observer?(key, [.inspectionFailure(reason)]) }
            if case .userspaceStackError(let reason) = error { observer?(key, [.inspectionFailure(reason)]) }
        }
    }

    /// Nothing reached the device yet: a fresh connection to the server, the held bytes first.
    private func rollback(_ key: FlowKey, _ held: Data) {
        guard case .terminating(let leg) = tcpFlows[key]?.inspection, let server = tcpFlows[key]?.flow.server else { return }
        stats.inspection?.inspectionsAbandoned += 1
        tcpFlows[key]?.inspection = nil
        let old = tcpFlows[key]?.connection
        old?.cancel()
        let connection = connector.openTCP(for: key, to: server)
        tcpFlows[key]?.connection = connection
        if !held.isEmpty { connection.send(held) }
        if leg.deviceFinished { connection.shutdownWrite() }
    }

    // MARK: Flow control across the termination

    /// The server's socket took `count` of our records.
    func upstreamDrained(_ key: FlowKey, _ count: Int) {
        guard case .terminating(var leg) = tcpFlows[key]?.inspection else { return }
        leg.upstreamUnsent = max(0, leg.upstreamUnsent - count)
        tcpFlows[key]?.inspection = .terminating(leg)
        settleDrain(key)
    }

    /// Tells the flow the device's bytes are gone once the server's socket has little waiting.
    private func settleDrain(_ key: FlowKey) {
        guard case .terminating(var leg) = tcpFlows[key]?.inspection,
              leg.owedDrain > 0, leg.upstreamUnsent <= TerminationLeg.drainThreshold else { return }
        let owed = leg.owedDrain
        leg.owedDrain = 0
        tcpFlows[key]?.inspection = .terminating(leg)
        tcpEvent(key) { $0.serverDidDrain(byteCount: owed) }
    }

    /// The flow asked to resume reading the server while our records still wait for its window.
    func wantsFlushBeforeResuming(_ key: FlowKey) -> Bool {
        guard case .terminating(var leg) = tcpFlows[key]?.inspection, !leg.pendingToDevice.isEmpty else { return false }
        leg.resumeWanted = true
        tcpFlows[key]?.inspection = .terminating(leg)
        return true
    }

    /// Hands the device's stream what its window takes of our records; then our FIN, and the
    /// server's reads, when they were waiting for it.
    func flushToDevice(_ key: FlowKey) {
        guard case .terminating(var leg) = tcpFlows[key]?.inspection, let flow = tcpFlows[key]?.flow else { return }
        let allowance = flow.serverReadAllowance
        if !leg.pendingToDevice.isEmpty, allowance > 0 {
            let count = min(allowance, leg.pendingToDevice.count)
            // Taken from the front of the pieces as they came: the backlog behind a small window
            // is never re-made whole at each flush (measured: that copy was the path's largest).
            let front = leg.pendingToDevice.bytes(at: 0, count: count)
            let chunk = front.startIndex == 0 ? front : Data(front)
            leg.pendingToDevice.removeFirst(count)
            leg.spokeToDevice = true
            tcpFlows[key]?.inspection = .terminating(leg)
            tcpEvent(key) { $0.receiveFromServer(chunk) }
        }
        guard case .terminating(var after) = tcpFlows[key]?.inspection, after.pendingToDevice.isEmpty else { return }
        if after.closeDeviceWhenFlushed {
            after.closeDeviceWhenFlushed = false
            tcpFlows[key]?.inspection = .terminating(after)
            tcpEvent(key) { $0.serverDidCloseSend() }
        }
        guard case .terminating(var last) = tcpFlows[key]?.inspection, last.resumeWanted else { return }
        last.resumeWanted = false
        tcpFlows[key]?.inspection = .terminating(last)
        if tcpFlows[key]?.flow.toDevice.readsPaused == false {
            let connection = tcpFlows[key]?.connection
            connection?.setReading(true)
        }
    }
}
