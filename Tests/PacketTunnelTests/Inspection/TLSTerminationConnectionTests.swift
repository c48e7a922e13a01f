import Foundation
import Shared
import Testing
@testable import PacketTunnel

/// The pairing of an inspected flow's two legs against scripted sessions: which bytes leave
/// through which door and when, how every ending is carried across, and how every way the attempt
/// can end is read (ADR 0003 above all: only evidence of refusal counts as one).
@Suite("Pairing the two legs of an inspected flow")
struct TLSTerminationConnectionTests {
    let factory = ScriptedFactory()
    static let upstream = NegotiatedTLS(version: .tls13, cipherSuite: TLSCipherSuite(rawValue: 0x1301),
                                        fromHelloRetryRequest: false, source: .upstreamConnection)

    func termination(_ offer: UpstreamOffer = .test()) throws -> TLSTerminationConnection {
        factory.client.onStart = [TLSSessionStep(toPeer: Data("our-hello"))]
        let t = try TLSTerminationConnection(offer, factory: factory)
        _ = t.start()
        _ = t.fromDevice(Data("device-hello"))
        return t
    }

    /// The upstream handshake finishes and the device's leg is made and fed the held hello.
    @discardableResult
    func upstreamUp(_ t: TLSTerminationConnection, serverFlight: String = "server-hello") -> TLSTerminationStep {
        factory.client.negotiated = Self.upstream
        factory.client.applicationProtocol = "h2"
        factory.client.onReceive = [TLSSessionStep(toPeer: Data("client-finished"), becameEstablished: true)]
        factory.server.onReceive = [TLSSessionStep(toPeer: Data(serverFlight))]
        return t.fromServer(Data("their-flight"))
    }

    /// Both legs up: the client's Finished reached our leaf.
    @discardableResult
    func bothUp(_ t: TLSTerminationConnection) -> TLSTerminationStep {
        upstreamUp(t)
        factory.server.negotiated = NegotiatedTLS(version: .tls13, cipherSuite: TLSCipherSuite(rawValue: 0x1302),
                                                  fromHelloRetryRequest: false, source: .upstreamConnection)
        factory.server.onReceive = [TLSSessionStep(toPeer: Data("tickets"), becameEstablished: true)]
        return t.fromDevice(Data("client-finished"))
    }

    // MARK: The upstream handshake

    @Test("the upstream leg is made from the offer inside the client's limits, and speaks first")
    func upstreamLegSpeaksFirst() throws {
        factory.client.onStart = [TLSSessionStep(toPeer: Data("our-hello"))]
        let t = try TLSTerminationConnection(.test(alpn: ["h2", "http/1.1"]), factory: factory)
        let step = t.start()
        #expect(factory.clientRequests == [.test(alpn: ["h2", "http/1.1"])])
        #expect(step.toServer == Data("our-hello"))
        #expect(step.toDevice.isEmpty)
        #expect(factory.serverRequests.isEmpty)
    }

    @Test("the device's hello is held, untouched, until the real server has passed verification")
    func helloHeldUntilUpstreamIsUp() throws {
        let t = try termination()
        #expect(factory.serverRequests.isEmpty)
        let step = upstreamUp(t)
        #expect(factory.serverRequests.map(\.protocol) == ["h2"])          // the server's choice answers the client
        #expect(factory.server.calls == [.receive(Data("device-hello"))])
        #expect(step.toServer == Data("client-finished"))
        #expect(step.toDevice == Data("server-hello"))
        #expect(step.upstreamTLS == Self.upstream)
        #expect(step.outcome == nil)
    }

    @Test("a server that fails verification steps aside: the client judges the real certificate itself")
    func verificationFailureStepsAside() throws {
        let t = try termination()
        factory.client.onReceive = [TLSSessionStep(ended: .verificationFailed("certificate has expired"))]
        let step = t.fromServer(Data("their-flight"))
        #expect(step.outcome == .steppedAside(InspectionReason(.upstreamVerificationFailed, detail: "certificate has expired")))
        #expect(step.ending == .rollback(Data("device-hello")))
        #expect(step.toDevice.isEmpty)
        #expect(factory.serverRequests.isEmpty)
        let verdict = TLSInterceptionPolicy.verdict(for: step.outcome!)
        #expect(verdict.status == .encrypted && verdict.remembersHost)
        #expect(t.fromDevice(Data("more")) == TLSTerminationStep())         // nothing after the end
    }

    @Test("a server that asks for the app's certificate makes its host not inspectable, and the client meets it directly")
    func certificateRequestStepsAside() throws {
        let t = try termination()
        factory.client.onReceive = [TLSSessionStep(ended: .certificateRequested)]
        let step = t.fromServer(Data("their-flight-with-certificate-request"))
        #expect(step.outcome == .notInspectable(InspectionReason(.clientCertificateRequested,
                                                                 detail: "the server asks for the app's certificate")))
        #expect(step.ending == .rollback(Data("device-hello")))
        #expect(step.toServer.isEmpty)                    // our leg answers nothing: no empty certificate sent
        #expect(TLSInterceptionPolicy.verdict(for: step.outcome!) ==
                .init(status: .notInspectable, reason: step.outcome.flatMap { if case .notInspectable(let r) = $0 { r } else { nil } },
                      remembersHost: true))
    }

    @Test("a server that refuses what the client offers is the client's own TLS policy, and the client hears it from the server")
    func offerRefusalIsTheClientsPolicy() throws {
        let t = try termination()
        factory.client.onReceive = [TLSSessionStep(ended: .alertFromPeer(.protocolVersion))]
        let step = t.fromServer(Data("alert"))
        #expect(step.outcome == .steppedAside(InspectionReason(.clientTLSPolicy,
                                                               detail: "the server refused what the client offers: alert 70 (protocol_version)")))
        #expect(step.ending == .rollback(Data("device-hello")))
        #expect(TLSInterceptionPolicy.verdict(for: step.outcome!).remembersHost == false)
    }

    @Test("another alert from the server during its handshake is the server breaking it, not the client's policy")
    func otherServerAlert() throws {
        let t = try termination()
        factory.client.onReceive = [TLSSessionStep(ended: .alertFromPeer(TLSAlertDescription(112)))]
        let step = t.fromServer(Data("alert"))
        #expect(step.outcome == .steppedAside(InspectionReason(.upstreamHandshakeFailed,
                                                               detail: "the server sent alert 112 (unrecognized_name)")))
        #expect(step.ending == .rollback(Data("device-hello")))
    }

    @Test("an upstream that is not TLS rolls back with every byte the device sent, in order")
    func notTLSUpstreamRollsBack() throws {
        factory.client.onStart = [TLSSessionStep(toPeer: Data("our-hello"))]
        let t = try TLSTerminationConnection(.test(), factory: factory)
        _ = t.start()
        _ = t.fromDevice(Data("hello-part-1"))
        _ = t.fromDevice(Data("hello-part-2"))
        factory.client.onReceive = [TLSSessionStep(ended: .failed("wrong version number"))]
        let step = t.fromServer(Data("HTTP/1.1 400 Bad Request"))
        #expect(step.ending == .rollback(Data("hello-part-1hello-part-2")))
        #expect(step.outcome == .steppedAside(InspectionReason(.upstreamHandshakeFailed, detail: "wrong version number")))
        #expect(step.toServer.isEmpty)
    }

    @Test("a server that closes during its handshake rolls back; one that resets it is reset through")
    func upstreamEndsDuringHandshake() throws {
        let closing = try termination()
        factory.client.onReceiveEnd = [TLSSessionStep(ended: .streamEndedInHandshake)]
        let closed = closing.serverEnded()
        #expect(closed.ending == .rollback(Data("device-hello")))
        #expect(closed.outcome == .steppedAside(InspectionReason(.upstreamHandshakeFailed,
                                                                 detail: "the server closed the connection during the handshake")))
        let resetting = try TLSTerminationConnection(.test(), factory: ScriptedFactory())
        let reset = resetting.serverReset()
        #expect(reset.ending == .abort)
        #expect(reset.serverEnding == nil)
    }

    @Test("a leaf that cannot be made rolls back: nothing was said to the device yet")
    func unmintableLeafRollsBack() throws {
        let t = try termination()
        factory.refuseServer = true
        let step = upstreamUp(t)
        #expect(step.ending == .rollback(Data("device-hello")))
        #expect(step.toDevice.isEmpty)
        #expect(step.outcome == .steppedAside(InspectionReason(.internalError, detail: "no leaf")))
    }

    // MARK: The client's handshake with our leaf

    @Test("a certificate alert before the client's Finished is a refusal: not inspectable, both sides closed")
    func certificateAlertIsARefusal() throws {
        let t = try termination()
        upstreamUp(t)
        factory.server.onReceive = [TLSSessionStep(ended: .alertFromPeer(.unknownCA))]
        let step = t.fromDevice(Data("alert-unknown-ca"))
        #expect(step.outcome == .notInspectable(InspectionReason(.refusedCertificate,
                                                                 detail: "the client refused the run's certificate with alert 48 (unknown_ca)")))
        #expect(step.ending == nil)                      // ends as the client chose: a close, not a reset
        #expect(step.closeDeviceSend && step.closeServerSend)
        #expect(step.toServer == Data("close_notify"))
        #expect(t.isFinished)
    }

    @Test("every certificate alert refuses, and no other alert does")
    func whichAlertsRefuse() {
        let refusing = (0...255).map { TLSAlertDescription(UInt8($0)) }.filter(\.refusesCertificate).map(\.rawValue)
        #expect(refusing == [42, 43, 44, 45, 46, 48])
    }

    @Test("another alert before the client's Finished is inspection failing the flow, never a refusal")
    func otherClientAlertFailsTheFlow() throws {
        let t = try termination()
        upstreamUp(t)
        factory.server.onReceive = [TLSSessionStep(ended: .alertFromPeer(.handshakeFailure))]
        let step = t.fromDevice(Data("alert"))
        #expect(step.outcome == .failed(InspectionReason(.clientHandshakeFailed,
                                                         detail: "the client ended the handshake with alert 40 (handshake_failure)")))
        #expect(TLSInterceptionPolicy.verdict(for: step.outcome!) ==
                .init(status: .inspectionFailed, reason: InspectionReason(.clientHandshakeFailed,
                                                                          detail: "the client ended the handshake with alert 40 (handshake_failure)"),
                      remembersHost: false))
    }

    @Test("a close or a reset before the client's Finished is a refusal")
    func closeOrResetBeforeFinishedRefuses() throws {
        let closing = try termination()
        upstreamUp(closing)
        let closed = closing.deviceEnded()
        #expect(closed.outcome == .notInspectable(InspectionReason(.refusedCertificate,
                                                                   detail: "the client closed the connection before finishing its handshake")))
        #expect(closed.closeServerSend && closed.closeDeviceSend)

        let other = ScriptedFactory()
        other.client.onReceive = [TLSSessionStep(becameEstablished: true)]
        let resetting = try TLSTerminationConnection(.test(), factory: other)
        _ = resetting.start()
        _ = resetting.fromServer(Data("their-flight"))
        let reset = resetting.deviceReset()
        #expect(reset.outcome == .notInspectable(InspectionReason(.refusedCertificate,
                                                                  detail: "the client reset the connection before finishing its handshake")))
    }

    @Test("a client that finishes its handshake accepted our leaf: inspected, even if it then closes without a word")
    func finishedHandshakeIsInspected() throws {
        let t = try termination()
        let finished = bothUp(t)
        #expect(finished.outcome == .inspected)
        #expect(finished.toDevice == Data("tickets"))
        #expect(finished.leafTLS == NegotiatedTLS(version: .tls13, cipherSuite: TLSCipherSuite(rawValue: 0x1302),
                                                   fromHelloRetryRequest: false, source: .tunnelLeaf))
        let end = t.deviceEnded()
        #expect(end.outcome == nil)                      // reported once, and never as a refusal
        #expect(end.closeServerSend)
        #expect(t.deviceReset().outcome == nil)
    }

    // MARK: The conversation and its ends

    @Test("the client's data reaches the server encrypted and the answer comes back, both kept in order")
    func dataBothWays() throws {
        let t = try termination()
        bothUp(t)
        factory.server.onReceive = [TLSSessionStep(plaintext: Data("GET / HTTP/1.1\r\n\r\n"))]
        let step = t.fromDevice(Data("request-records"))
        #expect(step.plaintext == [DecryptedPiece(Data("GET / HTTP/1.1\r\n\r\n"), .outbound)])
        #expect(step.toServer == Data("enc(GET / HTTP/1.1\r\n\r\n)"))

        factory.client.onReceive = [TLSSessionStep(plaintext: Data("HTTP/1.1 200 OK\r\n\r\n"))]
        let answer = t.fromServer(Data("response-records"))
        #expect(answer.plaintext == [DecryptedPiece(Data("HTTP/1.1 200 OK\r\n\r\n"), .inbound)])
        #expect(answer.toDevice == Data("enc(HTTP/1.1 200 OK\r\n\r\n)"))
    }

    @Test("a half-closed client still gets its answer: its FIN goes upstream as a FIN, and the answer comes back")
    func halfClosedClientGetsItsAnswer() throws {
        let t = try termination()
        bothUp(t)
        factory.server.onReceive = [TLSSessionStep(plaintext: Data("request"))]
        _ = t.fromDevice(Data("request-records"))
        let fin = t.deviceEnded()
        #expect(fin.closeServerSend)
        #expect(fin.toServer.isEmpty)                    // no close_notify the client never sent
        #expect(!fin.closeDeviceSend)
        #expect(!factory.client.calls.contains(.close))
        #expect(!t.isFinished)

        factory.client.onReceive = [TLSSessionStep(plaintext: Data("answer"), peerClosed: true)]
        let answer = t.fromServer(Data("answer-records+close_notify"))
        #expect(answer.toDevice == Data("enc(answer)close_notify"))
        let end = t.serverEnded()
        #expect(end.serverEnding == .closeNotify)
        #expect(end.closeDeviceSend)
        #expect(t.isFinished)
    }

    @Test("the client's close_notify reaches the server as a close_notify, and reading goes on")
    func clientCloseNotifyIsMirrored() throws {
        let t = try termination()
        bothUp(t)
        factory.server.onReceive = [TLSSessionStep(peerClosed: true)]
        let step = t.fromDevice(Data("close_notify-records"))
        #expect(step.toServer == Data("close_notify"))
        #expect(!step.closeServerSend)                   // the FIN follows when the client sends it
        factory.client.onReceive = [TLSSessionStep(plaintext: Data("late answer"))]
        #expect(t.fromServer(Data("records")).toDevice == Data("enc(late answer)"))
    }

    @Test("a server that stops without close_notify is seen by the client as exactly that: a FIN and no close_notify")
    func truncationIsNeverHidden() throws {
        let t = try termination()
        bothUp(t)
        let end = t.serverEnded()
        #expect(end.serverEnding == .withoutCloseNotify)
        #expect(end.closeDeviceSend)
        #expect(end.toDevice.isEmpty)
        #expect(!factory.server.calls.contains(.close))
    }

    @Test("a server's reset resets the client, and a fatal alert from it too")
    func resetAndAlertResetTheClient() throws {
        let t = try termination()
        bothUp(t)
        let reset = t.serverReset()
        #expect(reset.serverEnding == .reset)
        #expect(reset.ending == .abort)
        #expect(reset.outcome == nil)                    // it was inspected; the server ended it

        let other = ScriptedFactory()
        let u = try TLSTerminationConnection(.test(), factory: other)
        other.client.onReceive = [TLSSessionStep(becameEstablished: true)]
        other.server.onReceive = [TLSSessionStep(becameEstablished: true)]
        _ = u.fromServer(Data("their-flight"))
        _ = u.fromDevice(Data("client-hello-and-finished"))
        other.client.onReceive = [TLSSessionStep(ended: .alertFromPeer(TLSAlertDescription(20)))]
        let alert = u.fromServer(Data("alert"))
        #expect(alert.serverEnding == .fatalAlert)
        #expect(alert.ending == .abort)
    }

    @Test("what the server says before the device's leg is up is held, then flushed in order, and its close owed")
    func serverPlaintextHeldUntilDeviceReady() throws {
        let t = try termination()
        factory.client.negotiated = Self.upstream
        factory.client.onReceive = [TLSSessionStep(becameEstablished: true),
                                    TLSSessionStep(plaintext: Data("banner"), peerClosed: true)]
        factory.server.onReceive = [TLSSessionStep(toPeer: Data("server-hello")),
                                    TLSSessionStep(becameEstablished: true)]
        _ = t.fromServer(Data("their-flight"))
        let early = t.fromServer(Data("banner-records"))
        #expect(early.toDevice.isEmpty)
        let fin = t.serverEnded()
        #expect(!fin.closeDeviceSend)
        let ready = t.fromDevice(Data("client-finished"))
        #expect(ready.toDevice == Data("enc(banner)close_notify"))
        #expect(ready.closeDeviceSend)
    }

    @Test("a client that sends more than the bound before the server answers fails the flow")
    func holdIsBounded() throws {
        factory.client.onStart = [TLSSessionStep(toPeer: Data("our-hello"))]
        let t = try TLSTerminationConnection(.test(), factory: factory)
        _ = t.start()
        let step = t.fromDevice(Data(repeating: 0x16, count: TLSTerminationConnection.holdLimit + 1))
        #expect(step.ending == .abort)
        #expect(step.outcome == .failed(InspectionReason(.internalError,
                                                         detail: "the client sent more than 65536 bytes before the server answered")))
    }

    @Test("a factory that cannot make the upstream leg refuses the attempt before anything is sent")
    func refusedUpstreamLeg() {
        factory.refuseClient = true
        #expect(throws: TLSSessionFailure("no context")) {
            try TLSTerminationConnection(.test(), factory: factory)
        }
    }
}

@Suite("The gate and the memory of hosts not inspectable")
struct TLSInterceptionPolicyTests {
    static let device = IPEndpoint(address: TunnelAddressing.ipv4Address, port: 40_000)

    @Test("any TCP stream is a candidate while inspection is on, whatever its port; UDP never")
    func candidates() {
        for port: UInt16 in [443, 8443, 4433, 25] {
            let server = IPEndpoint(address: IPAddress(parsing: "198.19.0.2")!, port: port)
            #expect(TLSInterceptionPolicy.isCandidate(FlowKey(proto: .tcp, source: Self.device, destination: server),
                                                      inspectionEnabled: true))
            #expect(!TLSInterceptionPolicy.isCandidate(FlowKey(proto: .tcp, source: Self.device, destination: server),
                                                       inspectionEnabled: false))
            #expect(!TLSInterceptionPolicy.isCandidate(FlowKey(proto: .udp, source: Self.device, destination: server),
                                                       inspectionEnabled: true))
        }
    }

    @Test("the gate asks for the CA first, then a name, then a host not already found uninspectable")
    func gateOrder() {
        var remembered = UninspectableHosts()
        #expect(TLSInterceptionPolicy.gate(caReady: false, clientHelloSNI: nil, port: 443, remembered: remembered)
                == .skip(.encrypted, InspectionReason(.inspectionOff, detail: "the local CA is not usable")))
        #expect(TLSInterceptionPolicy.gate(caReady: true, clientHelloSNI: nil, port: 443, remembered: remembered)
                == .skip(.encrypted, InspectionReason(.noServerName)))
        #expect(TLSInterceptionPolicy.gate(caReady: true, clientHelloSNI: "", port: 443, remembered: remembered)
                == .skip(.encrypted, InspectionReason(.noServerName)))
        #expect(TLSInterceptionPolicy.gate(caReady: true, clientHelloSNI: "a.test", port: 443, remembered: remembered) == .attempt(sni: "a.test"))
        let refused = InspectionReason(.refusedCertificate, detail: "alert 48")
        remembered.remember("A.test", port: 443, refused)
        #expect(TLSInterceptionPolicy.gate(caReady: true, clientHelloSNI: "a.test", port: 443, remembered: remembered)
                == .skip(.notInspectable, refused))
        // Another port of the same name is another server: attempted on its own.
        #expect(TLSInterceptionPolicy.gate(caReady: true, clientHelloSNI: "a.test", port: 8443, remembered: remembered)
                == .attempt(sni: "a.test"))
        let unverified = InspectionReason(.upstreamVerificationFailed, detail: "certificate has expired")
        remembered.remember("b.test", port: 443, unverified)
        #expect(TLSInterceptionPolicy.gate(caReady: true, clientHelloSNI: "b.test", port: 443, remembered: remembered)
                == .skip(.encrypted, unverified))
    }

    @Test("the server alerts that refuse an offer are the ones about versions, suites, groups and extensions")
    func offerRefusals() {
        let refusing = (0...255).map { TLSAlertDescription(UInt8($0)) }.filter(TLSInterceptionPolicy.refusesOffer).map(\.rawValue)
        #expect(refusing == [40, 47, 70, 71, 109, 110, 120])
    }

    @Test("every outcome has its status, and only refusals and verification failures are remembered")
    func verdicts() {
        let reason = InspectionReason(.internalError)
        #expect(TLSInterceptionPolicy.verdict(for: .inspected) == .init(status: .inspected, reason: nil, remembersHost: false))
        #expect(TLSInterceptionPolicy.verdict(for: .steppedAside(reason)) == .init(status: .encrypted, reason: reason, remembersHost: false))
        #expect(TLSInterceptionPolicy.verdict(for: .notInspectable(reason))
                == .init(status: .notInspectable, reason: reason, remembersHost: true))
        #expect(TLSInterceptionPolicy.verdict(for: .failed(reason)) == .init(status: .inspectionFailed, reason: reason, remembersHost: false))
    }

    @Test("the memory is bounded, forgets the oldest host first, and keeps a host's first reason")
    func memoryBound() {
        var memory = UninspectableHosts(capacity: 3)
        let first = InspectionReason(.refusedCertificate)
        for host in ["a", "b", "c", "d"] { memory.remember(host, port: 443, first) }
        #expect(memory.count == 3)
        #expect(!memory.contains("a", port: 443))
        #expect(memory.contains("b", port: 443) && memory.contains("d", port: 443))
        #expect(!memory.contains("b", port: 444))
        memory.remember("b", port: 443, InspectionReason(.clientCertificateRequested))   // already known: nothing moves
        #expect(memory.reason(for: "B", port: 443) == first)
        for index in 0..<20 { memory.remember("h\(index)", port: 443, first) }
        #expect(memory.count == 3)
        #expect(memory.contains("h19", port: 443) && memory.contains("h17", port: 443) && !memory.contains("h16", port: 443))
    }
}
