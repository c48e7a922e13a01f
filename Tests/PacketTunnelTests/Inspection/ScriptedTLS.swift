import Foundation
import Shared
@testable import PacketTunnel

/// A TLS session whose answers the test writes: each call takes the next scripted step for its
/// kind (or an empty one) and is recorded, so a test says what each leg was given and in what order.
final class ScriptedSession: TLSSession {
    enum Call: Equatable { case start, receive(Data), send(Data), receiveEnd, close }
    var calls: [Call] = []
    var onStart: [TLSSessionStep] = []
    var onReceive: [TLSSessionStep] = []
    var onSend: [TLSSessionStep] = []
    var onReceiveEnd: [TLSSessionStep] = []
    var onClose: [TLSSessionStep] = []
    var isEstablished = false
    var negotiated: NegotiatedTLS?
    var applicationProtocol: String?

    private func next(_ list: inout [TLSSessionStep]) -> TLSSessionStep {
        let step = list.isEmpty ? TLSSessionStep() : list.removeFirst()
        if step.becameEstablished { isEstablished = true }
        return step
    }

    func start() -> TLSSessionStep { calls.append(.start); return next(&onStart) }
    func receive(_ records: Data) -> TLSSessionStep { calls.append(.receive(records)); return next(&onReceive) }
    func send(_ plaintext: Data) -> TLSSessionStep {
        calls.append(.send(plaintext))
        // Sending "encrypts": the records are the plaintext marked, unless the script says otherwise.
        return onSend.isEmpty ? TLSSessionStep(toPeer: Data("enc(".utf8) + plaintext + Data(")".utf8)) : onSend.removeFirst()
    }
    func receiveEnd() -> TLSSessionStep { calls.append(.receiveEnd); return next(&onReceiveEnd) }
    func close() -> TLSSessionStep {
        calls.append(.close)
        return onClose.isEmpty ? TLSSessionStep(toPeer: Data("close_notify".utf8)) : onClose.removeFirst()
    }
}

/// Hands out the scripted legs and records what it was asked for.
final class ScriptedFactory: TLSSessionFactory {
    let client = ScriptedSession()
    let server = ScriptedSession()
    var capabilities = UpstreamCapabilities(tls12CipherSuites: [0xC02F, 0xC030], tls13CipherSuites: [0x1301, 0x1302])
    var clientRequests: [UpstreamOffer] = []
    var serverRequests: [(host: String, protocol: String?)] = []
    var refuseClient = false
    var refuseServer = false

    func makeServer(host: String, applicationProtocol: String?) throws(TLSSessionFailure) -> any TLSSession {
        serverRequests.append((host, applicationProtocol))
        if refuseServer { throw TLSSessionFailure("no leaf") }
        return server
    }

    func makeClient(_ offer: UpstreamOffer) throws(TLSSessionFailure) -> any TLSSession {
        clientRequests.append(offer)
        if refuseClient { throw TLSSessionFailure("no context") }
        return client
    }
}

extension UpstreamOffer {
    /// An offer for `host` at both versions with the scripted factory's suites.
    static func test(_ host: String = "example.test", alpn: [String] = ["h2", "http/1.1"]) -> UpstreamOffer {
        UpstreamOffer(host: host, applicationProtocols: alpn, minimumVersion: .tls12, maximumVersion: .tls13,
                      tls12CipherSuites: [0xC02F], tls13CipherSuites: [0x1301])
    }
}

extension Data {
    init(_ text: String) { self.init(text.utf8) }
}
