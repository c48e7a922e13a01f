import Foundation
import Shared
import Testing
@testable import PacketTunnel

/// The relay hookup of inspection against a scripted connector and scripted TLS legs: real
/// datagrams from the device, the ClientHello a golden vector (SNI "example.com", ALPN h2 +
/// http/1.1), every reinjected datagram parsed back.
@Suite("The relay's hookup of TLS inspection")
struct RelayInspectionTests {
    static let device = IPEndpoint(address: TunnelAddressing.ipv4Address, port: 40_000)
    static let server = IPEndpoint(address: IPAddress(parsing: "198.19.0.2")!, port: 443)
    static let deviceISN: UInt32 = 1_000
    static let ourISN: UInt32 = 70_000
    static let hello = Data(TLSVectors.clientHelloRecord)

    let connector = RelayTests.ScriptedConnector()
    let delivered = RelayTests.Delivered()
    let factory = ScriptedFactory()
    let relay: Relay
    let inspection: RelayInspection
    let facts = FactLog()

    final class FactLog { var facts: [FlowFact] = [] }

    init() {
        let delivered = self.delivered
        relay = Relay(connector: connector, initialSequence: { Self.ourISN }) { buffer, _ in
            let datagram = Data(buffer)
            delivered.raw.append(datagram)
            delivered.packets.append(try! PacketParser.parse(datagram))
        }
        inspection = RelayInspection(factory: factory)
        relay.inspection = inspection
        let log = facts
        relay.observer = { _, facts in log.facts += facts }
    }

    var server = Self.server
    var key: FlowKey { FlowKey(proto: .tcp, source: Self.device, destination: server) }
    var connection: RelayTests.ScriptedConnection? { connector.tcp[key] }

    func send(_ flags: TCPFlags, seq: UInt32, ack: UInt32 = 0, _ payload: Data = Data()) {
        let datagram = try! PacketEmitter.tcp(source: Self.device, destination: server, sequence: seq,
                                              acknowledgment: ack, flags: flags, windowSize: 65_535, payload: payload)
        relay.passthrough(try! PacketParser.parse(datagram), datagram: datagram)
    }

    /// The device's sequence number after the hello.
    static let afterHello = deviceISN + 1 + UInt32(hello.count)

    /// Both legs up, the device's Finished sent: the flow is inspected.
    func inspectedFlow() {
        factory.client.onStart = [TLSSessionStep(toPeer: Data("our-hello"))]
        established()
        sendHello()
        factory.client.onReceive = [TLSSessionStep(becameEstablished: true)]
        factory.server.onReceive = [TLSSessionStep(toPeer: Data("our-server-hello")), TLSSessionStep(becameEstablished: true)]
        relay.serverDidReceive(key, Data("their-flight"))
        send([.ack, .psh], seq: Self.afterHello, ack: Self.ourISN + 1, Data("client-finished"))
    }

    func established() {
        send(.syn, seq: Self.deviceISN)
        relay.serverDidConnect(key)
        send(.ack, seq: Self.deviceISN + 1, ack: Self.ourISN + 1)
    }

    func sendHello() { send([.ack, .psh], seq: Self.deviceISN + 1, ack: Self.ourISN + 1, Self.hello) }

    func payloads() -> [Data] {
        zip(delivered.packets, delivered.raw).compactMap { packet, raw in
            guard let tcp = packet.tcp, !tcp.payloadRange.isEmpty else { return nil }
            return Data(raw[tcp.payloadRange])
        }
    }

    @Test("a candidate's plain connection opens on the SYN and its SYN-ACK waits for the server, as any flow's")
    func candidateOpensAsAnyFlow() throws {
        send(.syn, seq: Self.deviceISN)
        #expect(connection != nil)
        #expect(delivered.packets.isEmpty)
        relay.serverDidConnect(key)
        #expect(delivered.packets.first?.tcp?.flags == [.syn, .ack])
    }

    @Test("the ClientHello is held off the server; the swap sends our own hello on the same socket")
    func helloHeldAndSwapped() throws {
        factory.client.onStart = [TLSSessionStep(toPeer: Data("our-hello"))]
        established()
        sendHello()
        // The hello offers TLS 1.3 and 1.2 but only TLS 1.3 suites: the upstream offers 1.3 alone.
        #expect(factory.clientRequests == [UpstreamOffer(host: "example.com", applicationProtocols: ["h2", "http/1.1"],
                                                         minimumVersion: .tls13, maximumVersion: .tls13,
                                                         tls12CipherSuites: [], tls13CipherSuites: [0x1301, 0x1302])])
        #expect(connection?.sent == [Data("our-hello")])                 // never the device's hello
        #expect(relay.stats.inspection?.inspectionCandidates == 1)
        #expect(relay.stats.inspection?.terminationsOpened == 1)
        #expect(facts.facts.contains(.serverName("example.com")))       // the name is still recorded

        // The upstream answers, our leg toward the device is made and answers the held hello.
        factory.client.negotiated = NegotiatedTLS(version: .tls13, cipherSuite: TLSCipherSuite(rawValue: 0x1301),
                                                  fromHelloRetryRequest: false, source: .upstreamConnection)
        factory.client.applicationProtocol = "h2"
        factory.client.onReceive = [TLSSessionStep(toPeer: Data("client-finished"), becameEstablished: true)]
        factory.server.onReceive = [TLSSessionStep(toPeer: Data("our-server-hello"))]
        relay.serverDidReceive(key, Data("their-flight"))
        #expect(factory.server.calls == [.receive(Self.hello)])
        #expect(factory.serverRequests.first?.protocol == "h2")
        #expect(connection?.sent.last == Data("client-finished"))
        #expect(payloads() == [Data("our-server-hello")])
        #expect(facts.facts.contains(.serverAnswer(.negotiated(factory.client.negotiated!))))
    }

    @Test("a stream that is not TLS goes to the server untouched, byte for byte, and nothing is said of inspection")
    func notTLSReleased() {
        established()
        let request = Data("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        send([.ack, .psh], seq: Self.deviceISN + 1, ack: Self.ourISN + 1, request)
        #expect(connection?.sent == [request])
        #expect(factory.clientRequests.isEmpty)
        #expect(relay.stats.inspection?.inspectionCandidates == 0)
        #expect(!facts.facts.contains { if case .inspection = $0 { true } else { false } })
    }

    @Test("a ClientHello on another port than 443 is a candidate too")
    mutating func anyPortIsACandidate() {
        server = IPEndpoint(address: Self.server.address, port: 8443)
        factory.client.onStart = [TLSSessionStep(toPeer: Data("our-hello"))]
        established()
        sendHello()
        #expect(connection?.sent == [Data("our-hello")])
        #expect(relay.stats.inspection?.terminationsOpened == 1)
    }

    @Test("a hello that names no server passes through untouched and says so")
    func noServerName() {
        established()
        let hello = Data(TLSVectors.clientHello(extensions: [TLSVectors.supportedVersions([0x0304])]))
        send([.ack, .psh], seq: Self.deviceISN + 1, ack: Self.ourISN + 1, hello)
        #expect(connection?.sent == [hello])
        #expect(facts.facts.contains(.inspection(.encrypted, InspectionReason(.noServerName))))
        #expect(relay.stats.inspection?.byReason[.noServerName] == 1)
    }

    @Test("a client whose limits the tunnel cannot stay inside passes through untouched, with the client's policy as the reason")
    func outsideTheClientsPolicy() {
        established()
        // TLS 1.1 at most: inspection speaks 1.2 and 1.3 only, so no upstream offer can stay inside.
        let hello = Data(TLSVectors.clientHello(legacyVersion: 0x0302, extensions: [TLSVectors.serverName("old.test")]))
        send([.ack, .psh], seq: Self.deviceISN + 1, ack: Self.ourISN + 1, hello)
        #expect(connection?.sent == [hello])
        #expect(factory.clientRequests.isEmpty)
        #expect(facts.facts.contains(.inspection(.encrypted, InspectionReason(
            .clientTLSPolicy, detail: "the client offers up to TLS 1.1; inspection speaks TLS 1.2 and 1.3 only"))))
    }

    @Test("a hello split over two segments is held whole and read once")
    func splitHello() {
        factory.client.onStart = [TLSSessionStep(toPeer: Data("our-hello"))]
        established()
        send([.ack], seq: Self.deviceISN + 1, ack: Self.ourISN + 1, Self.hello.prefix(40))
        #expect(connection?.sent.isEmpty == true)
        send([.ack, .psh], seq: Self.deviceISN + 41, ack: Self.ourISN + 1, Self.hello.dropFirst(40))
        #expect(factory.clientRequests.count == 1)
        let upstream = NegotiatedTLS(version: .tls13, cipherSuite: TLSCipherSuite(rawValue: 0x1301),
                                     fromHelloRetryRequest: false, source: .upstreamConnection)
        factory.client.negotiated = upstream
        factory.client.onReceive = [TLSSessionStep(becameEstablished: true)]
        relay.serverDidReceive(key, Data("their-flight"))
        #expect(factory.server.calls == [.receive(Self.hello)])
    }

    @Test("with inspection off, a TLS flow is relayed untouched and says inspection was off")
    func offMeansUntouched() {
        inspection.isEnabled = false
        established()
        sendHello()
        #expect(connection?.sent == [Self.hello])
        #expect(factory.clientRequests.isEmpty)
        #expect(facts.facts.contains(.inspection(.encrypted, InspectionReason(.inspectionOff))))
        #expect(relay.stats.inspection?.byReason[.inspectionOff] == 1)
    }

    @Test("a QUIC flow is passed through and says so")
    func quicSaysSo() {
        let udpKey = FlowKey(proto: .udp, source: Self.device, destination: Self.server)
        let initial = Data([0xC3, 0x00, 0x00, 0x00, 0x01] + [UInt8](repeating: 0, count: 20))
        let datagram = try! PacketEmitter.udp(source: Self.device, destination: Self.server, payload: initial)
        relay.passthrough(try! PacketParser.parse(datagram), datagram: datagram)
        #expect(connector.udp[udpKey]?.sent == [initial])
        #expect(facts.facts == [.inspection(.encrypted, InspectionReason(.quic))])
        let other = try! PacketEmitter.udp(source: IPEndpoint(address: TunnelAddressing.ipv4Address, port: 40_002),
                                           destination: Self.server, payload: Data("not quic".utf8))
        relay.passthrough(try! PacketParser.parse(other), datagram: other)
        #expect(facts.facts.count == 1)
    }

    @Test("a host whose client refused our leaf is remembered: its next connection passes through with no attempt")
    func pinnedHostIsNeverRetried() throws {
        factory.client.onStart = [TLSSessionStep(toPeer: Data("our-hello"))]
        established()
        sendHello()
        factory.client.onReceive = [TLSSessionStep(becameEstablished: true)]
        factory.server.onReceive = [TLSSessionStep(toPeer: Data("our-server-hello")), TLSSessionStep(ended: .alertFromPeer(.unknownCA))]
        relay.serverDidReceive(key, Data("their-flight"))
        send([.ack, .psh], seq: Self.afterHello, ack: Self.ourISN + 1, Data([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x30]))
        #expect(relay.stats.inspection?.flowsPinned == 1)
        let refused = InspectionReason(.refusedCertificate, detail: "the client refused the run's certificate with alert 48 (unknown_ca)")
        #expect(facts.facts.contains(.inspection(.notInspectable, refused)))
        #expect(inspection.remembered.reason(for: "example.com", port: 443) == refused)

        // The same host again, on another port of the device: straight through, counted as a skip.
        relay.close(key)
        let second = IPEndpoint(address: TunnelAddressing.ipv4Address, port: 40_001)
        let secondKey = FlowKey(proto: .tcp, source: second, destination: Self.server)
        func sendSecond(_ flags: TCPFlags, seq: UInt32, ack: UInt32 = 0, _ payload: Data = Data()) {
            let datagram = try! PacketEmitter.tcp(source: second, destination: Self.server, sequence: seq,
                                                  acknowledgment: ack, flags: flags, windowSize: 65_535, payload: payload)
            relay.passthrough(try! PacketParser.parse(datagram), datagram: datagram)
        }
        sendSecond(.syn, seq: 5_000)
        relay.serverDidConnect(secondKey)
        sendSecond(.ack, seq: 5_001, ack: Self.ourISN + 1)
        sendSecond([.ack, .psh], seq: 5_001, ack: Self.ourISN + 1, Self.hello)
        #expect(connector.tcp[secondKey]?.sent == [Self.hello])
        #expect(factory.clientRequests.count == 1)                        // zero attempts for it
        #expect(relay.stats.inspection?.pinnedHostSkips == 1)
        #expect(relay.stats.inspection?.terminationsOpened == 1)
        #expect(relay.stats.inspection?.byReason[.refusedCertificate] == 2)
    }

    @Test("an upstream that fails verification steps aside: the device meets the real server, and the host is remembered")
    func verificationFailureStepsAside() throws {
        factory.client.onStart = [TLSSessionStep(toPeer: Data("our-hello"))]
        established()
        sendHello()
        let first = try #require(connection)
        factory.client.onReceive = [TLSSessionStep(ended: .verificationFailed("certificate has expired"))]
        relay.serverDidReceive(key, Data("their-flight"))
        #expect(first.cancelled)
        #expect(connection?.sent == [Self.hello])                          // the device's own hello, on a fresh connection
        #expect(!delivered.packets.contains { $0.tcp?.flags.contains(.rst) == true })
        #expect(payloads().isEmpty)                                        // no leaf of ours ever sent
        let reason = InspectionReason(.upstreamVerificationFailed, detail: "certificate has expired")
        #expect(facts.facts.contains(.inspection(.encrypted, reason)))
        #expect(relay.stats.inspection?.byReason[.upstreamVerificationFailed] == 1)
        #expect(inspection.remembered.reason(for: "example.com", port: 443) == reason)
        #expect(relay.openFlowCount == 1)
    }

    @Test("a server that resets an inspected flow resets the device, and the flow says how the server ended")
    func serverResetReachesTheDevice() {
        inspectedFlow()
        relay.serverDidFail(key)
        #expect(delivered.packets.last?.tcp?.flags.contains(.rst) == true)
        #expect(facts.facts.contains(.serverEnding(.reset)))
        #expect(relay.openFlowCount == 0)
    }

    @Test("a half-closed device's FIN reaches the server as a FIN, and the server's answer still reaches the device")
    func halfCloseCarriedUpstream() throws {
        inspectedFlow()
        send([.ack, .fin], seq: Self.afterHello + 15, ack: Self.ourISN + 1 + 16)
        #expect(connection?.shutDown == true)
        let before = payloads().count
        factory.client.onReceive = [TLSSessionStep(plaintext: Data("answer"))]
        relay.serverDidReceive(key, Data("answer-records"))
        #expect(payloads().count == before + 1)
        #expect(payloads().last == Data("enc(answer)"))
    }

    @Test("a transient failure before the device heard anything rolls back over a fresh connection, hello intact")
    func rollbackOverFreshConnection() throws {
        factory.client.onStart = [TLSSessionStep(toPeer: Data("our-hello"))]
        established()
        sendHello()
        let first = try #require(connection)
        factory.client.onReceive = [TLSSessionStep(ended: .failed("wrong version number"))]
        relay.serverDidReceive(key, Data("not tls"))
        #expect(first.cancelled)
        let fresh = try #require(connection)
        #expect(fresh !== first)
        #expect(fresh.sent == [Self.hello])
        #expect(relay.stats.inspection?.inspectionsAbandoned == 1)
        // From here it is plain passthrough: the server's bytes reach the device as they come.
        relay.serverDidReceive(key, Data("plain answer"))
        #expect(payloads() == [Data("plain answer")])
    }

    @Test("decrypted content goes to the keeper only when one is given, tagged with its flow and way")
    func plaintextKeeper() throws {
        var kept: [(FlowKey, DecryptedPiece)] = []
        inspection.keepPlaintext = { kept.append(($0, $1)) }
        factory.client.onStart = [TLSSessionStep(toPeer: Data("our-hello"))]
        established()
        sendHello()
        factory.client.onReceive = [TLSSessionStep(becameEstablished: true)]
        factory.server.onReceive = [TLSSessionStep(becameEstablished: true), TLSSessionStep(plaintext: Data("GET /"))]
        relay.serverDidReceive(key, Data("their-flight"))
        #expect(relay.stats.inspection?.flowsInspected == 1)             // the handshake finished: accepted
        #expect(facts.facts.contains(.inspection(.inspected, nil)))
        send([.ack, .psh], seq: Self.afterHello, ack: Self.ourISN + 1, Data("records"))
        #expect(kept.map(\.0) == [key])
        #expect(kept.map(\.1) == [DecryptedPiece(Data("GET /"), .outbound)])
    }
}
