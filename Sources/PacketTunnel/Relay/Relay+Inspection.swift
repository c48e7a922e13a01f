import Foundation
import Shared

/// The relay hookup of TLS inspection (the relay-and-TLS seed, "the relay hookup"): while
/// inspection is on, every TCP flow opens as a candidate — its plain connection to the server made
/// as for any flow, so the device's SYN-ACK stays faithful — and its first bytes are held until
/// they show whether it opens with a ClientHello, on whatever port. Then either the swap (a
/// `TLSTerminationConnection` takes the same socket as its upstream transport) or the release
/// (the held bytes go out untouched, and the flow is plain passthrough from there). Every TLS flow
/// not inspected is told why (`InspectionReason`).
extension Relay {
    /// A new TCP flow's phase: a candidate when inspection may apply to it.
    func candidacy(_ key: FlowKey) -> FlowInspectionPhase? {
        guard let inspection, TLSInterceptionPolicy.isCandidate(key, inspectionEnabled: inspection.isEnabled) else { return nil }
        // The relay's own stream scanners fingerprint the hello; this one only decides.
        return .candidate(held: Data(), scanner: ClientHelloScanner(config: .init(computesFingerprints: false)))
    }

    func isTerminating(_ key: FlowKey) -> Bool {
        if case .terminating = tcpFlows[key]?.inspection { true } else { false }
    }

    /// Records what became of `key` and why, counted by its reason.
    func recordInspection(_ key: FlowKey, _ status: TLSInspectionStatus, _ reason: InspectionReason?) {
        if let reason { stats.inspection?.byReason.count(reason.kind) }
        observer?(key, [.inspection(status, reason)])
    }

    /// A TLS stream that was never a candidate (inspection off, or not asked for): said so once.
    func streamOpenedTLSUninspected(_ key: FlowKey) {
        recordInspection(key, .encrypted, InspectionReason(.inspectionOff))
    }

    /// A UDP flow's first datagram: QUIC is passed through (ADR 0006), and said so — QUIC as the
    /// pipeline tells it (`QUICLongHeader.connectionVersion`), so a DNS query is never called one.
    func udpFlowOpened(_ key: FlowKey, firstPayload payload: Data, remotePort: UInt16) {
        guard payload.withUnsafeBytes({ QUICLongHeader.connectionVersion(in: $0, remotePort: remotePort) }) != nil else { return }
        let active = inspection?.isEnabled == true
        recordInspection(key, .encrypted, InspectionReason(active ? .quic : .inspectionOff))
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
            case .found(let sni): attempt(key, sni: sni, scanner: scanner, held: held)
            case .unavailable(let reason):
                switch reason {
                case .notTLSHandshake: break    // not TLS: nothing to say
                case .noServerName: recordInspection(key, .encrypted, InspectionReason(.noServerName))
                case .notClientHello, .malformed, .tooLarge:
                    recordInspection(key, .encrypted, InspectionReason(.unreadableClientHello, detail: Self.describe(reason)))
                }
                release(key, held)
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

    /// The device reset a flow being torn down: only how its attempt went is left to record.
    func inspectDeviceReset(_ key: FlowKey) {
        guard case .terminating(let leg) = tcpFlows[key]?.inspection,
              let outcome = leg.termination.deviceReset().outcome else { return }
        record(outcome, host: leg.termination.host, key)
    }

    /// The ClientHello named `sni`: the gate, the offer inside the client's limits, then the swap
    /// — or the release, untouched.
    private func attempt(_ key: FlowKey, sni: String, scanner: ClientHelloScanner, held: Data) {
        guard let inspection, let port = tcpFlows[key]?.flow.server.port else { return release(key, held) }
        switch TLSInterceptionPolicy.gate(caReady: inspection.caReady(), clientHelloSNI: sni, port: port,
                                          remembered: inspection.remembered) {
        case .skip(let status, let reason):
            if inspection.remembered.contains(sni, port: port) { stats.inspection?.pinnedHostSkips += 1 }
            recordInspection(key, status, reason)
            release(key, held)
        case .attempt(let host):
            stats.inspection?.inspectionCandidates += 1
            let offer: UpstreamOffer
            switch UpstreamOfferPlan.plan(host: host, applicationProtocols: scanner.offer?.applicationProtocols ?? [],
                                          limits: scanner.limits, capabilities: inspection.factory.capabilities) {
            case .outsideClientPolicy(let detail):
                stats.inspection?.inspectionsAbandoned += 1
                recordInspection(key, .encrypted, InspectionReason(.clientTLSPolicy, detail: detail))
                return release(key, held)
            case .offer(let planned):
                offer = planned
            }
            let termination: TLSTerminationConnection
            do {
                termination = try TLSTerminationConnection(offer, factory: inspection.factory)
            } catch {
                stats.inspection?.inspectionsAbandoned += 1
                recordInspection(key, .encrypted, InspectionReason(.internalError, detail: error.description))
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

    private static func describe(_ reason: ClientHelloScanner.Reason) -> String {
        switch reason {
        case .notTLSHandshake: "not a TLS handshake"
        case .notClientHello: "the first handshake message is not a ClientHello"
        case .malformed: "the ClientHello is malformed"
        case .noServerName: "the ClientHello names no server"
        case .tooLarge: "the ClientHello is larger than a hello may be"
        }
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
        if let leaf = step.leafTLS { observer?(key, [.leafTLS(leaf)]) }
        if let ending = step.serverEnding { observer?(key, [.serverEnding(ending)]) }
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
        let verdict = TLSInterceptionPolicy.verdict(for: outcome)
        switch verdict.status {
        case .inspected: stats.inspection?.flowsInspected += 1
        case .inspectionFailed: stats.inspection?.terminationsFailed += 1
        case .notInspectable where verdict.reason?.kind == .refusedCertificate: stats.inspection?.flowsPinned += 1
        case .plaintext, .encrypted, .notInspectable: break
        }
        if verdict.remembersHost, let reason = verdict.reason, let port = tcpFlows[key]?.flow.server.port {
            inspection?.remembered.remember(host, port: port, reason)
        }
        recordInspection(key, verdict.status, verdict.reason)
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
            // Taken from the front of the pieces as they came, a slice where it lies in one: the
            // backlog behind a small window is never re-made whole at each flush (measured: that
            // copy was the path's largest), nor a piece's rest copied once the window cut it.
            let chunk = leg.pendingToDevice.bytes(at: 0, count: count)
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
