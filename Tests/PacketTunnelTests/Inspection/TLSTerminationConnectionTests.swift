import Foundation
import Shared
import Testing
@testable import PacketTunnel

/// The pairing of an inspected flow's two legs against scripted sessions: which bytes leave
/// through which door and when, and how every ending is read (ADR 0003 above all).
@Suite("Pairing the two legs of an inspected flow")
struct TLSTerminationConnectionTests {
    let factory = ScriptedFactory()
    static let upstream = NegotiatedTLS(version: .tls13, cipherSuite: TLSCipherSuite(rawValue: 0x1301),
                                        fromHelloRetryRequest: false, source: .upstreamConnection)

    func termination(alpn: [String] = ["h2", "http/1.1"]) throws -> TLSTerminationConnection {
        factory.client.onStart = [TLSSessionStep(toPeer: Data("our-hello"))]
        return try TLSTerminationConnection(host: "example.test", applicationProtocols: alpn, factory: factory)
    }

    /// The upstream handshake finishes and the device's leg is made and fed the held hello.
    func upstreamUp(_ t: TLSTerminationConnection, serverFlight: String = "server-hello") -> TLSTerminationStep {
        factory.client.negotiated = Self.upstream
        factory.client.applicationProtocol = "h2"
        factory.client.onReceive = [TLSSessionStep(toPeer: Data("client-finished"), becameEstablished: true)]
        factory.server.onReceive = [TLSSessionStep(toPeer: Data(serverFlight))]
        return t.fromServer(Data("their-flight"))
    }

    @Test("the upstream leg is made for the client's name with the client's own ALPN list, and speaks first")
    func upstreamLegSpeaksFirst() throws {
        let t = try termination()
        let step = t.start()
        #expect(factory.clientRequests.map(\.host) == ["example.test"])
        #expect(factory.clientRequests.first?.protocols == ["h2", "http/1.1"])
        #expect(step.toServer == Data("our-hello"))
        #expect(step.toDevice.isEmpty)
        #expect(factory.serverRequests.isEmpty)
    }

    @Test("the device's hello is held, untouched, until the real server has passed verification")
    func helloHeldUntilUpstreamIsUp() throws {
        let t = try termination()
        _ = t.start()
        let held = t.fromDevice(Data("device-hello"))
        #expect(held == TLSTerminationStep())
        #expect(factory.serverRequests.isEmpty)
        let step = upstreamUp(t)
        #expect(factory.serverRequests.map(\.protocol) == ["h2"])          // the server's choice answers the client
        #expect(factory.server.calls == [.receive(Data("device-hello"))])
        #expect(step.toServer == Data("client-finished"))
        #expect(step.toDevice == Data("server-hello"))
        #expect(step.upstreamTLS == Self.upstream)
        #expect(step.outcome == nil)
    }

    @Test("a server that fails verification fails the flow closed, and the client never sees a leaf of ours")
    func verificationFailureFailsClosed() throws {
        let t = try termination()
        _ = t.start()
        _ = t.fromDevice(Data("device-hello"))
        factory.client.onReceive = [TLSSessionStep(ended: .verificationFailed("certificate has expired"))]
        let step = t.fromServer(Data("their-flight"))
        #expect(step.outcome == .serverHandshakeFailed("certificate has expired"))
        #expect(step.ending == .abort)
        #expect(step.toDevice.isEmpty)
        #expect(factory.serverRequests.isEmpty)
        #expect(TLSInterceptionPolicy.decide(step.outcome!) == .fail(.handshakeWithServerFailed("certificate has expired")))
        #expect(t.fromDevice(Data("more")) == TLSTerminationStep())         // nothing after the end
    }

    @Test("an upstream that is not TLS rolls back with every byte the device sent, in order")
    func notTLSUpstreamRollsBack() throws {
        let t = try termination()
        _ = t.start()
        _ = t.fromDevice(Data("hello-part-1"))
        _ = t.fromDevice(Data("hello-part-2"))
        factory.client.onReceive = [TLSSessionStep(ended: .failed("wrong version number"))]
        let step = t.fromServer(Data("HTTP/1.1 400 Bad Request"))
        #expect(step.ending == .rollback(Data("hello-part-1hello-part-2")))
        #expect(step.outcome == nil)
        #expect(step.toServer.isEmpty)
    }

    @Test("a leaf that cannot be made rolls back: nothing was said to the device yet")
    func unmintableLeafRollsBack() throws {
        let t = try termination()
        _ = t.start()
        _ = t.fromDevice(Data("device-hello"))
        factory.refuseServer = true
        let step = upstreamUp(t)
        #expect(step.ending == .rollback(Data("device-hello")))
        #expect(step.toDevice.isEmpty)
    }

    @Test("a client that sends an alert during our handshake is recorded as pinning, and both sides are closed")
    func alertMeansPinned() throws {
        let t = try termination()
        _ = t.start()
        _ = t.fromDevice(Data("device-hello"))
        _ = upstreamUp(t)
        factory.server.onReceive = [TLSSessionStep(ended: .alertFromPeer(48))]
        let step = t.fromDevice(Data("alert-unknown-ca"))
        #expect(step.outcome == .pinned)
        #expect(TLSInterceptionPolicy.decide(.pinned) == .notInspectable)
        #expect(step.ending == nil)                      // ends as the client chose: a close, not a reset
        #expect(step.closeDeviceSend && step.closeServerSend)
        #expect(step.toServer == Data("close_notify"))
        #expect(t.isFinished)
    }

    @Test("a client that completes the handshake and closes without sending anything refused it too")
    func closeAfterHandshakeMeansPinned() throws {
        let t = try termination()
        _ = t.start()
        _ = t.fromDevice(Data("device-hello"))
        _ = upstreamUp(t)
        factory.server.onReceive = [TLSSessionStep(toPeer: Data("tickets"), becameEstablished: true)]
        let finished = t.fromDevice(Data("client-finished"))
        #expect(finished.outcome == nil)
        #expect(finished.toDevice == Data("tickets"))
        let step = t.deviceEnded()
        #expect(step.outcome == .pinned)
    }

    @Test("the client's first data is the moment the flow is inspected, and it reaches the server encrypted")
    func firstDataMeansInspected() throws {
        let t = try termination()
        _ = t.start()
        _ = t.fromDevice(Data("device-hello"))
        _ = upstreamUp(t)
        factory.server.onReceive = [TLSSessionStep(becameEstablished: true),
                                    TLSSessionStep(plaintext: Data("GET / HTTP/1.1\r\n\r\n"))]
        _ = t.fromDevice(Data("client-finished"))
        let step = t.fromDevice(Data("request-records"))
        #expect(step.outcome == .inspected)
        #expect(step.plaintext == [DecryptedPiece(Data("GET / HTTP/1.1\r\n\r\n"), .outbound)])
        #expect(step.toServer == Data("enc(GET / HTTP/1.1\r\n\r\n)"))

        factory.client.onReceive = [TLSSessionStep(plaintext: Data("HTTP/1.1 200 OK\r\n\r\n"))]
        let answer = t.fromServer(Data("response-records"))
        #expect(answer.outcome == nil)                   // reported once
        #expect(answer.plaintext == [DecryptedPiece(Data("HTTP/1.1 200 OK\r\n\r\n"), .inbound)])
        #expect(answer.toDevice == Data("enc(HTTP/1.1 200 OK\r\n\r\n)"))
        // Closing after data is an ordinary end, not a refusal.
        let end = t.deviceEnded()
        #expect(end.outcome == nil)
        #expect(end.closeServerSend)
    }

    @Test("what the server says before the device's leg is up is held, then flushed in order")
    func serverPlaintextHeldUntilDeviceReady() throws {
        let t = try termination()
        _ = t.start()
        _ = t.fromDevice(Data("device-hello"))
        factory.client.negotiated = Self.upstream
        factory.client.onReceive = [TLSSessionStep(becameEstablished: true, ended: nil),
                                    TLSSessionStep(plaintext: Data("banner"))]
        factory.server.onReceive = [TLSSessionStep(toPeer: Data("server-hello")),
                                    TLSSessionStep(becameEstablished: true)]
        _ = t.fromServer(Data("their-flight"))
        let early = t.fromServer(Data("banner-records"))
        #expect(early.toDevice.isEmpty)
        let ready = t.fromDevice(Data("client-finished"))
        #expect(ready.toDevice == Data("enc(banner)"))
    }

    @Test("the server's close is passed on as close_notify and our FIN")
    func serverCloseIsPassedOn() throws {
        let t = try termination()
        _ = t.start()
        _ = t.fromDevice(Data("device-hello"))
        _ = upstreamUp(t)
        factory.client.onReceiveEnd = [TLSSessionStep(ended: .closedByPeer)]
        let step = t.serverEnded()
        #expect(step.toDevice == Data("close_notify"))
        #expect(step.closeDeviceSend)
    }

    @Test("a client that sends more than the bound before the server answers fails the flow")
    func holdIsBounded() throws {
        let t = try termination()
        _ = t.start()
        let step = t.fromDevice(Data(repeating: 0x16, count: TLSTerminationConnection.holdLimit + 1))
        #expect(step.ending == .abort)
        #expect(step.outcome == .userspaceStackError("the client sent more than 65536 bytes before the server answered"))
    }

    @Test("a factory that cannot make the upstream leg refuses the attempt before anything is sent")
    func refusedUpstreamLeg() {
        factory.refuseClient = true
        #expect(throws: TLSSessionFailure("no context")) {
            try TLSTerminationConnection(host: "example.test", applicationProtocols: [], factory: factory)
        }
    }
}

@Suite("The gate and the memory of pinning hosts")
struct TLSInterceptionPolicyTests {
    static let server443 = IPEndpoint(address: IPAddress(parsing: "198.19.0.2")!, port: 443)
    static let device = IPEndpoint(address: TunnelAddressing.ipv4Address, port: 40_000)

    @Test("only TCP to 443 with inspection on is a candidate")
    func candidates() {
        let tcp = FlowKey(proto: .tcp, source: Self.device, destination: Self.server443)
        let udp = FlowKey(proto: .udp, source: Self.device, destination: Self.server443)
        let other = IPEndpoint(address: Self.server443.address, port: 8443)
        #expect(TLSInterceptionPolicy.isCandidate(tcp, server: Self.server443, inspectionEnabled: true))
        #expect(!TLSInterceptionPolicy.isCandidate(tcp, server: Self.server443, inspectionEnabled: false))
        #expect(!TLSInterceptionPolicy.isCandidate(udp, server: Self.server443, inspectionEnabled: true))
        #expect(!TLSInterceptionPolicy.isCandidate(FlowKey(proto: .tcp, source: Self.device, destination: other),
                                                   server: other, inspectionEnabled: true))
    }

    @Test("the gate asks for the CA first, then a name, then a host that never refused us")
    func gateOrder() {
        var pinned = PinnedHostMemory()
        #expect(TLSInterceptionPolicy.gate(caReady: false, clientHelloSNI: nil, pinned: pinned) == .abort(.noCA))
        #expect(TLSInterceptionPolicy.gate(caReady: true, clientHelloSNI: nil, pinned: pinned) == .abort(.noSNI))
        #expect(TLSInterceptionPolicy.gate(caReady: true, clientHelloSNI: "", pinned: pinned) == .abort(.noSNI))
        #expect(TLSInterceptionPolicy.gate(caReady: true, clientHelloSNI: "a.test", pinned: pinned) == .attempt(sni: "a.test"))
        pinned.remember("A.test")
        #expect(TLSInterceptionPolicy.gate(caReady: true, clientHelloSNI: "a.test", pinned: pinned) == .abort(.pinnedHost))
        #expect(TLSInterceptionPolicy.status(for: .pinnedHost) == .notInspectable)
        #expect(TLSInterceptionPolicy.status(for: .noSNI) == nil)
    }

    @Test("every outcome has its decision, and a refusal is never an error")
    func decisions() {
        #expect(TLSInterceptionPolicy.decide(.inspected) == .inspected)
        #expect(TLSInterceptionPolicy.decide(.pinned) == .notInspectable)
        #expect(TLSInterceptionPolicy.decide(.userspaceStackError("x")) == .fail(.userspaceStackError("x")))
    }

    @Test("the memory is bounded and forgets the oldest host first")
    func memoryBound() {
        var memory = PinnedHostMemory(capacity: 3)
        for host in ["a", "b", "c", "d"] { memory.remember(host) }
        #expect(memory.count == 3)
        #expect(!memory.contains("a"))
        #expect(memory.contains("b") && memory.contains("d"))
        memory.remember("b")                           // already known: nothing moves
        for index in 0..<20 { memory.remember("h\(index)") }
        #expect(memory.count == 3)
        #expect(memory.contains("h19") && memory.contains("h17") && !memory.contains("h16"))
    }
}
