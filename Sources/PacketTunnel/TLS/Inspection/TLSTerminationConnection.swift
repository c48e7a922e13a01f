import Foundation
import Shared

/// One inspected flow's two TLS legs, paired: our server toward the device, presenting a leaf
/// for `host`, and our client toward the real server. Pure — the sessions are given, the bytes
/// come and go through `TLSTerminationStep` — so the relay stays the only owner of the transport.
///
/// The order is the point (ADR 0003, and "the tunnel never vouches for a server the system would
/// not trust"): the device's ClientHello is held while the upstream handshake runs, and our server
/// leg is made only once the real server has passed verification, answering the client's ALPN
/// with the server's own choice. So a server that fails verification fails the flow closed before
/// the client has seen any leaf of ours, and a failure before that point can still roll back to
/// passthrough with every byte the device sent.
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
    private var clientSentData = false
    private var outcomeReported = false
    package private(set) var isFinished = false

    /// Makes the upstream leg, offering the client's own ALPN list; `start()` gives its first flight.
    package init(host: String, applicationProtocols: [String], factory: any TLSSessionFactory) throws(TLSSessionFailure) {
        self.host = host
        self.factory = factory
        client = try factory.makeClient(host: host, applicationProtocols: applicationProtocols)
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
        guard server != nil else {
            heldFromDevice.append(data)
            if heldFromDevice.count > Self.holdLimit {
                fail(.userspaceStackError("the client sent more than \(Self.holdLimit) bytes before the server answered"), into: &step)
            }
            return step
        }
        feedServer(data, into: &step)
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
        guard !isFinished else { return step }
        guard let server else {
            // The client gave up before we answered it: nothing was attempted on it.
            absorbClient(client.close(), into: &step)
            step.closeServerSend = true
            isFinished = true
            return step
        }
        guard clientSentData else {
            // Closing during or right after the handshake, having sent nothing: a refusal.
            resolve(.pinned, into: &step)
            closeBoth(into: &step)
            return step
        }
        step.toDevice.append(adopting: server.receiveEnd().toPeer)
        absorbClient(client.close(), into: &step)
        step.closeServerSend = true
        return step
    }

    /// The server's FIN.
    package func serverEnded() -> TLSTerminationStep {
        var step = TLSTerminationStep()
        guard !isFinished else { return step }
        absorbClient(client.receiveEnd(), into: &step)
        return step
    }

    // MARK: The two legs

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
                    fail(.userspaceStackError("the server sent more than \(Self.holdLimit) bytes before the client was ready"), into: &step)
                }
            }
        }
        guard let ended = produced.ended, !isFinished else { return }
        if server == nil {
            switch ended {
            case .verificationFailed(let reason):
                // Never vouch for a server the system would not trust.
                fail(.serverHandshakeFailed(reason), into: &step)
            case .alertFromPeer, .failed, .closedByPeer:
                // Nothing was said to the device: the client meets the server on its own.
                rollback(into: &step)
            }
            return
        }
        switch ended {
        case .closedByPeer:
            if let server { step.toDevice.append(adopting: server.close().toPeer) }
            step.closeDeviceSend = true
            isFinished = true
        case .alertFromPeer(let code):
            fail(.userspaceStackError("the server ended the connection with TLS alert \(code)"), into: &step)
        case .verificationFailed(let reason):
            fail(.serverHandshakeFailed(reason), into: &step)
        case .failed(let reason):
            fail(.userspaceStackError("the server's side: \(reason)"), into: &step)
        }
    }

    /// The real server passed verification: now the device's leg, answering its ALPN with the
    /// server's choice, fed what the device already sent.
    private func upstreamEstablished(into step: inout TLSTerminationStep) {
        step.upstreamTLS = client.negotiated
        do {
            server = try factory.makeServer(host: host, applicationProtocol: client.applicationProtocol)
        } catch {
            rollback(into: &step)
            return
        }
        let held = heldFromDevice
        heldFromDevice = Data()
        if !held.isEmpty { feedServer(held, into: &step) }
    }

    private func feedServer(_ data: Data, into step: inout TLSTerminationStep) {
        guard let server else { return }
        absorbServer(server.receive(data), into: &step)
    }

    /// What the device's leg produced.
    private func absorbServer(_ produced: TLSSessionStep, into step: inout TLSTerminationStep) {
        step.toDevice.append(adopting: produced.toPeer)
        if produced.becameEstablished, !heldForDevice.isEmpty, let server {
            let held = heldForDevice
            heldForDevice = Data()
            absorbServer(server.send(held), into: &step)
        }
        if !produced.plaintext.isEmpty, !isFinished {
            if !clientSentData {
                clientSentData = true
                resolve(.inspected, into: &step)
            }
            step.plaintext.append(DecryptedPiece(produced.plaintext, .outbound))
            absorbClient(client.send(produced.plaintext), into: &step)
        }
        guard let ended = produced.ended, !isFinished else { return }
        switch ended {
        case .alertFromPeer where !clientSentData, .closedByPeer where !clientSentData:
            // ADR 0003: the client refused our leaf. Torn down, remembered, never forced.
            resolve(.pinned, into: &step)
            closeBoth(into: &step)
        case .closedByPeer, .alertFromPeer:
            absorbClient(client.close(), into: &step)
            step.closeServerSend = true
            if case .alertFromPeer = ended { step.closeDeviceSend = true; isFinished = true }
        case .failed(let reason), .verificationFailed(let reason):
            if clientSentData {
                fail(.userspaceStackError("the client's side: \(reason)"), into: &step)
            } else {
                // A client that breaks off the handshake in its own way refused it all the same.
                resolve(.pinned, into: &step)
                closeBoth(into: &step)
            }
        }
    }

    // MARK: Endings

    private func resolve(_ outcome: TLSTerminationOutcome, into step: inout TLSTerminationStep) {
        guard !outcomeReported else { return }
        outcomeReported = true
        step.outcome = outcome
    }

    /// Both sides closed in order: close_notify to the server, our FIN to the device.
    private func closeBoth(into step: inout TLSTerminationStep) {
        step.toServer.append(adopting: client.close().toPeer)
        step.closeServerSend = true
        step.closeDeviceSend = true
        isFinished = true
    }

    private func fail(_ outcome: TLSTerminationOutcome, into step: inout TLSTerminationStep) {
        resolve(outcome, into: &step)
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
