import Foundation
import Shared

/// One inspected flow's two TLS legs, paired: our server toward the device, presenting a leaf
/// for `host`, and our client toward the real server. Pure — the sessions are given, the bytes
/// come and go through `TLSTerminationStep` — so the relay stays the only owner of the transport.
///
/// The order is the point (ADR 0003; "inspection never weakens a client"): the device's
/// ClientHello is held while the upstream handshake runs, offering the server only what the client
/// itself offered (`UpstreamOffer`), and our server leg is made only once the real server has
/// passed verification, answering the client's ALPN with the server's own choice. Until then
/// nothing has reached the device, so whatever stops the upstream handshake — a server that fails
/// verification, refuses the client's offer, or asks for the app's certificate — steps aside: the
/// device's bytes go to the server untouched and the client meets it on its own terms.
///
/// After that, each end is carried across as it came, never cleaner: a close_notify as a
/// close_notify, a FIN as a FIN (so a half-closed client still gets its answer, and a server that
/// stops without close_notify is seen by the client as exactly that), a reset as a reset.
package final class TLSTerminationConnection {
    package let host: String
    /// Bytes the device may send before our server leg exists (its ClientHello; early data) and
    /// plaintext the server may send before the device's leg is up: beyond this, the flow fails.
    package static let holdLimit = 65_536

    private let factory: any TLSSessionFactory
    private let client: any TLSSession
    private var server: (any TLSSession)?
    /// The device's bytes, kept until `server` exists.
    private var heldFromDevice = Data()
    /// The server's plaintext, kept until the device's leg is established.
    private var heldForDevice = Data()
    /// The server's close_notify, owed to the device once its leg is established.
    private var closeNotifyOwedToDevice = false
    /// The server's FIN, owed to the device once its leg is established.
    private var finOwedToDevice = false
    private var serverSentCloseNotify = false
    private var deviceEndedStream = false
    private var serverEndedStream = false
    private var outcomeReported = false
    package private(set) var isFinished = false

    /// Makes the upstream leg, offering only `offer`; `start()` gives its first flight.
    package init(_ offer: UpstreamOffer, factory: any TLSSessionFactory) throws(TLSSessionFailure) {
        host = offer.host
        self.factory = factory
        client = try factory.makeClient(offer)
    }

    /// Our ClientHello, for the server's socket.
    package func start() -> TLSTerminationStep {
        var step = TLSTerminationStep()
        absorbClient(client.start(), into: &step)
        return step
    }

    /// Bytes of the device's stream.
    package func fromDevice(_ data: Data) -> TLSTerminationStep {
        var step = TLSTerminationStep()
        guard !isFinished, !data.isEmpty else { return step }
        guard let server else {
            heldFromDevice.append(data)
            if heldFromDevice.count > Self.holdLimit {
                fail(InspectionReason(.internalError, detail: "the client sent more than \(Self.holdLimit) bytes before the server answered"),
                     into: &step)
            }
            return step
        }
        absorbServer(server.receive(data), into: &step)
        return step
    }

    /// Bytes of the server's socket.
    package func fromServer(_ data: Data) -> TLSTerminationStep {
        var step = TLSTerminationStep()
        guard !isFinished, !data.isEmpty else { return step }
        absorbClient(client.receive(data), into: &step)
        return step
    }

    /// The device's FIN.
    package func deviceEnded() -> TLSTerminationStep {
        var step = TLSTerminationStep()
        guard !isFinished, !deviceEndedStream else { return step }
        deviceEndedStream = true
        guard let server else {
            // The client gave up before we answered it: nothing was attempted on it.
            step.closeServerSend = true
            isFinished = true
            return step
        }
        guard server.isEstablished else {
            // A close before the client's Finished: it would not go on with our leaf.
            resolve(.notInspectable(InspectionReason(.refusedCertificate,
                                                     detail: "the client closed the connection before finishing its handshake")),
                    into: &step)
            closeBoth(into: &step)
            return step
        }
        // Half-closed: the FIN goes upstream as a FIN, and the server's answer still comes back.
        absorbServer(server.receiveEnd(), into: &step)
        step.closeServerSend = true
        finishIfBothEnded()
        return step
    }

    /// The device reset the connection: the flow is gone; only how the attempt went is left to say.
    package func deviceReset() -> TLSTerminationStep {
        var step = TLSTerminationStep()
        guard !isFinished else { return step }
        isFinished = true
        if let server, !server.isEstablished {
            resolve(.notInspectable(InspectionReason(.refusedCertificate,
                                                     detail: "the client reset the connection before finishing its handshake")),
                    into: &step)
        }
        return step
    }

    /// The server's FIN.
    package func serverEnded() -> TLSTerminationStep {
        var step = TLSTerminationStep()
        guard !isFinished, !serverEndedStream else { return step }
        serverEndedStream = true
        guard client.isEstablished else {
            absorbClient(client.receiveEnd(), into: &step)
            return step
        }
        step.serverEnding = serverSentCloseNotify ? .closeNotify : .withoutCloseNotify
        if let server, server.isEstablished {
            step.closeDeviceSend = true
        } else {
            finOwedToDevice = true
        }
        finishIfBothEnded()
        return step
    }

    /// The server reset the connection: the device is reset in turn.
    package func serverReset() -> TLSTerminationStep {
        var step = TLSTerminationStep()
        guard !isFinished else { return step }
        if client.isEstablished {
            step.serverEnding = .reset
            resolve(.failed(InspectionReason(.upstreamFailed,
                                             detail: "the server reset the connection before the client's handshake finished")),
                    into: &step)
        } else {
            resolve(.steppedAside(InspectionReason(.upstreamHandshakeFailed, detail: "the server reset the connection during the handshake")),
                    into: &step)
        }
        step.ending = .abort
        isFinished = true
        return step
    }

    // MARK: The upstream leg

    /// What the upstream leg produced.
    private func absorbClient(_ produced: TLSSessionStep, into step: inout TLSTerminationStep) {
        step.toServer.append(adopting: produced.toPeer)
        if produced.becameEstablished { upstreamEstablished(into: &step) }
        if !produced.plaintext.isEmpty, !isFinished {
            step.plaintext.append(DecryptedPiece(produced.plaintext, .inbound))
            if let server, server.isEstablished {
                absorbServer(server.send(produced.plaintext), into: &step)
            } else {
                heldForDevice.append(produced.plaintext)
                if heldForDevice.count > Self.holdLimit {
                    fail(InspectionReason(.internalError,
                                          detail: "the server sent more than \(Self.holdLimit) bytes before the client was ready"),
                         into: &step)
                }
            }
        }
        if produced.peerClosed, !isFinished {
            serverSentCloseNotify = true
            if let server, server.isEstablished {
                absorbServer(server.close(), into: &step)
            } else {
                closeNotifyOwedToDevice = true
            }
        }
        guard let ended = produced.ended, !isFinished else { return }
        guard server != nil else { return upstreamHandshakeEnded(ended, into: &step) }
        switch ended {
        case .alertFromPeer(let alert):
            step.serverEnding = .fatalAlert
            fail(InspectionReason(.upstreamFailed, detail: "the server ended the connection with \(alert.description)"), into: &step)
        case .failed(let reason), .verificationFailed(let reason):
            fail(InspectionReason(.upstreamFailed, detail: "the server's side: \(reason)"), into: &step)
        case .certificateRequested:
            fail(InspectionReason(.upstreamFailed, detail: "the server asked for a client certificate after the handshake"), into: &step)
        case .streamEndedInHandshake:
            fail(InspectionReason(.upstreamFailed, detail: "the server's stream ended"), into: &step)
        }
    }

    /// The upstream handshake stopped before anything reached the device: step aside, and the
    /// client meets the server on its own — which gives it the server's own answer (its alert,
    /// its certificate for the client to judge, its request for the app's certificate).
    private func upstreamHandshakeEnded(_ ended: TLSSessionEnd, into step: inout TLSTerminationStep) {
        let outcome: TLSTerminationOutcome
        switch ended {
        case .verificationFailed(let reason):
            outcome = .steppedAside(InspectionReason(.upstreamVerificationFailed, detail: reason))
        case .certificateRequested:
            outcome = .notInspectable(InspectionReason(.clientCertificateRequested,
                                                       detail: "the server asks for the app's certificate"))
        case .alertFromPeer(let alert) where TLSInterceptionPolicy.refusesOffer(alert):
            outcome = .steppedAside(InspectionReason(.clientTLSPolicy,
                                                     detail: "the server refused what the client offers: \(alert.description)"))
        case .alertFromPeer(let alert):
            outcome = .steppedAside(InspectionReason(.upstreamHandshakeFailed, detail: "the server sent \(alert.description)"))
        case .streamEndedInHandshake:
            outcome = .steppedAside(InspectionReason(.upstreamHandshakeFailed, detail: "the server closed the connection during the handshake"))
        case .failed(let reason):
            outcome = .steppedAside(InspectionReason(.upstreamHandshakeFailed, detail: reason))
        }
        resolve(outcome, into: &step)
        rollback(into: &step)
    }

    /// The real server passed verification: now the device's leg, answering its ALPN with the
    /// server's choice, fed what the device already sent.
    private func upstreamEstablished(into step: inout TLSTerminationStep) {
        step.upstreamTLS = client.negotiated
        do {
            server = try factory.makeServer(host: host, applicationProtocol: client.applicationProtocol)
        } catch {
            resolve(.steppedAside(InspectionReason(.internalError, detail: error.description)), into: &step)
            rollback(into: &step)
            return
        }
        let held = heldFromDevice
        heldFromDevice = Data()
        if !held.isEmpty, let server { absorbServer(server.receive(held), into: &step) }
    }

    // MARK: The device's leg

    /// What the device's leg produced.
    private func absorbServer(_ produced: TLSSessionStep, into step: inout TLSTerminationStep) {
        guard let server else { return }
        step.toDevice.append(adopting: produced.toPeer)
        if produced.becameEstablished { deviceEstablished(server, into: &step) }
        if !produced.plaintext.isEmpty, !isFinished {
            step.plaintext.append(DecryptedPiece(produced.plaintext, .outbound))
            absorbClient(client.send(produced.plaintext), into: &step)
        }
        if produced.peerClosed, !isFinished {
            // The client's close_notify ends what it sends: the server is told the same way.
            absorbClient(client.close(), into: &step)
        }
        guard let ended = produced.ended, !isFinished else { return }
        guard outcomeReported else { return deviceHandshakeEnded(ended, into: &step) }
        // After the handshake: the client broke off; the server hears a plain end of stream.
        step.closeServerSend = true
        step.closeDeviceSend = true
        isFinished = true
    }

    /// The client finished its handshake with our leaf: it accepted it.
    private func deviceEstablished(_ server: any TLSSession, into step: inout TLSTerminationStep) {
        step.leafTLS = server.negotiated.map {
            NegotiatedTLS(version: $0.version, cipherSuite: $0.cipherSuite, fromHelloRetryRequest: false, source: .tunnelLeaf)
        }
        resolve(.inspected, into: &step)
        if !heldForDevice.isEmpty {
            let held = heldForDevice
            heldForDevice = Data()
            absorbServer(server.send(held), into: &step)
        }
        if closeNotifyOwedToDevice {
            closeNotifyOwedToDevice = false
            absorbServer(server.close(), into: &step)
        }
        if finOwedToDevice {
            finOwedToDevice = false
            step.closeDeviceSend = true
        }
    }

    /// The client's handshake with our leaf stopped before its Finished. A certificate alert is a
    /// refusal of our leaf (ADR 0003); any other breakage is inspection failing the flow.
    private func deviceHandshakeEnded(_ ended: TLSSessionEnd, into step: inout TLSTerminationStep) {
        switch ended {
        case .alertFromPeer(let alert) where alert.refusesCertificate || alert == .closeNotify:
            resolve(.notInspectable(InspectionReason(.refusedCertificate,
                                                     detail: "the client refused the run's certificate with \(alert.description)")),
                    into: &step)
        case .alertFromPeer(let alert):
            resolve(.failed(InspectionReason(.clientHandshakeFailed, detail: "the client ended the handshake with \(alert.description)")),
                    into: &step)
        case .streamEndedInHandshake:
            resolve(.notInspectable(InspectionReason(.refusedCertificate,
                                                     detail: "the client closed the connection before finishing its handshake")),
                    into: &step)
        case .failed(let reason), .verificationFailed(let reason):
            resolve(.failed(InspectionReason(.clientHandshakeFailed, detail: reason)), into: &step)
        case .certificateRequested:
            resolve(.failed(InspectionReason(.internalError, detail: "the client's leg asked for a certificate")), into: &step)
        }
        closeBoth(into: &step)
    }

    // MARK: Endings

    private func finishIfBothEnded() {
        if deviceEndedStream, serverEndedStream { isFinished = true }
    }

    private func resolve(_ outcome: TLSTerminationOutcome, into step: inout TLSTerminationStep) {
        guard !outcomeReported else { return }
        outcomeReported = true
        step.outcome = outcome
    }

    /// The device's handshake is over without a session: the server hears close_notify (the
    /// upstream session was sound) and our FIN, the device our FIN after whatever alert we wrote.
    private func closeBoth(into step: inout TLSTerminationStep) {
        step.toServer.append(adopting: client.close().toPeer)
        step.closeServerSend = true
        step.closeDeviceSend = true
        isFinished = true
    }

    private func fail(_ reason: InspectionReason, into step: inout TLSTerminationStep) {
        resolve(.failed(reason), into: &step)
        step.ending = .abort
        isFinished = true
    }

    private func rollback(into step: inout TLSTerminationStep) {
        step.toServer = Data()
        step.ending = .rollback(heldFromDevice)
        heldFromDevice = Data()
        isFinished = true
    }
}
