import Foundation
import Shared
import Testing
@testable import PacketTunnel

/// The relay's wiring: real datagrams from the device (built by `PacketEmitter`, parsed by
/// `PacketParser`), a scripted connector in place of the sockets, and every reinjected datagram
/// parsed back to check what the device would receive.
@Suite("The relay's wiring")
struct RelayTests {
    static let device = IPEndpoint(address: TunnelAddressing.ipv4Address, port: 40_000)
    static let server = IPEndpoint(address: IPAddress(parsing: "198.19.0.2")!, port: 80)
    static let resolver = IPEndpoint(address: IPAddress(parsing: "198.19.0.2")!, port: 53)
    static let deviceISN: UInt32 = 1_000
    static let ourISN: UInt32 = 70_000
    static let window = 60_000

    final class ScriptedConnection: RelayConnection {
        var sent: [Data] = []
        var shutDown = false
        var reading = true
        var cancelled = false
        /// Closed with a reset (`reset`), which also counts as `cancelled`.
        var wasReset = false
        /// What the shell does inside the relay's call, as a socket that fails mid-write would.
        var onSend: (() -> Void)?
        func send(_ data: Data) {
            sent.append(data)
            onSend?()
        }
        func shutdownWrite() { shutDown = true }
        func setReading(_ enabled: Bool) { reading = enabled }
        func cancel() { cancelled = true }
        func reset() {
            wasReset = true
            cancelled = true
        }
    }

    final class ScriptedConnector: RelayConnector {
        var tcp: [FlowKey: ScriptedConnection] = [:]
        var udp: [FlowKey: ScriptedConnection] = [:]
        var timers: [FlowKey: TCPRelayFlow.RetransmitTimer?] = [:]
        var refuseUDP = false
        /// What the shell does inside `openTCP`, before the relay holds the connection.
        var onOpen: ((FlowKey) -> Void)?
        func openTCP(for key: FlowKey, to server: IPEndpoint) -> any RelayConnection {
            let connection = ScriptedConnection()
            tcp[key] = connection
            onOpen?(key)
            return connection
        }
        func openUDP(for key: FlowKey, to server: IPEndpoint) -> (any RelayConnection)? {
            guard !refuseUDP else { return nil }
            let connection = ScriptedConnection()
            udp[key] = connection
            return connection
        }
        func setRetransmitTimer(for key: FlowKey, _ timer: TCPRelayFlow.RetransmitTimer?) { timers[key] = timer }
    }

    let connector = ScriptedConnector()
    let delivered = Delivered()
    let relay: Relay

    final class Delivered { var packets: [ParsedPacket] = []; var raw: [Data] = [] }

    init() {
        let delivered = self.delivered
        // A window below 65 535, so every byte not yet drained shows in the window field.
        relay = Relay(connector: connector, config: TCPRelayFlow.Config(maxToServerBytes: Self.window),
                      initialSequence: { Self.ourISN }) { buffer, _ in
            let datagram = Data(buffer)                               // the relay reuses its buffer
            delivered.raw.append(datagram)
            delivered.packets.append(try! PacketParser.parse(datagram))
        }
    }

    var key: FlowKey { FlowKey(proto: .tcp, source: Self.device, destination: Self.server) }

    /// The device sends a TCP segment.
    func send(_ flags: TCPFlags, seq: UInt32, ack: UInt32 = 0, _ payload: String = "", to server: IPEndpoint = server) {
        let datagram = try! PacketEmitter.tcp(source: Self.device, destination: server, sequence: seq,
                                              acknowledgment: ack, flags: flags, windowSize: 65_535,
                                              payload: Data(payload.utf8))
        relay.passthrough(try! PacketParser.parse(datagram), datagram: datagram)
    }

    func payload(_ packet: ParsedPacket) -> String {
        let index = delivered.packets.firstIndex { $0 == packet }!
        let range = packet.tcp?.payloadRange ?? packet.udp!.payloadRange
        return String(decoding: delivered.raw[index][range], as: UTF8.self)
    }

    func established() {
        send(.syn, seq: Self.deviceISN)
        relay.serverDidConnect(key)
        send(.ack, seq: Self.deviceISN + 1, ack: Self.ourISN + 1)
    }

    @Test("a SYN opens the server connection and the SYN-ACK waits until it is up")
    func synDefersTheSynAck() throws {
        send(.syn, seq: Self.deviceISN)
        #expect(connector.tcp[key] != nil)
        #expect(delivered.packets.isEmpty)
        relay.serverDidConnect(key)
        let synAck = try #require(delivered.packets.first?.tcp)
        #expect(synAck.flags == [.syn, .ack])
        #expect(synAck.sequence == Self.ourISN)
        #expect(synAck.acknowledgment == Self.deviceISN + 1)
        #expect(delivered.packets.first?.source == Self.server)
        #expect(delivered.packets.first?.destination == Self.device)
        #expect(relay.stats.tcpFlowsOpened == 1)
        #expect(connector.timers[key] != nil)   // the SYN-ACK waits for its acknowledgment
    }

    @Test("device data reaches the server and is acknowledged; server data reaches the device")
    func dataBothWays() throws {
        established()
        send([.ack, .psh], seq: Self.deviceISN + 1, ack: Self.ourISN + 1, "GET / HTTP/1.1\r\n\r\n")
        #expect(connector.tcp[key]?.sent == [Data("GET / HTTP/1.1\r\n\r\n".utf8)])
        let ack = try #require(delivered.packets.last?.tcp)
        #expect(ack.acknowledgment == Self.deviceISN + 1 + 18)

        relay.serverDidReceive(key, Data("HTTP/1.1 200 OK\r\n".utf8))
        let data = try #require(delivered.packets.last)
        #expect(payload(data) == "HTTP/1.1 200 OK\r\n")
        #expect(data.tcp?.sequence == Self.ourISN + 1)
        #expect(relay.stats.bytesFromDevice == 18)
        #expect(relay.stats.bytesToDevice == 17)
    }

    @Test("the device's FIN half-closes the server side; the server's end sends our FIN; the last ACK ends the flow")
    func gracefulClose() throws {
        established()
        send([.fin, .ack], seq: Self.deviceISN + 1, ack: Self.ourISN + 1)
        #expect(connector.tcp[key]?.shutDown == true)
        relay.serverDidCloseSend(key)
        let fin = try #require(delivered.packets.last?.tcp)
        #expect(fin.flags.contains(.fin))
        send(.ack, seq: Self.deviceISN + 2, ack: Self.ourISN + 2)
        #expect(connector.tcp[key]?.cancelled == true && connector.tcp[key]?.wasReset == false, "an ordinary close")
        #expect(relay.openFlowCount == 0)
        #expect(relay.stats.tcpFlowsClosed == 1)
        #expect(connector.timers[key] == .some(nil))
    }

    @Test("a server that refuses makes the device see a reset, counted as a connect failure")
    func refusal() throws {
        send(.syn, seq: Self.deviceISN)
        relay.serverDidFail(key)
        let reset = try #require(delivered.packets.last?.tcp)
        #expect(reset.flags.contains(.rst))
        #expect(reset.acknowledgment == Self.deviceISN + 1)
        #expect(relay.openFlowCount == 0)
        #expect(relay.stats.connectFailures == 1)
        #expect(connector.tcp[key]?.cancelled == true && connector.tcp[key]?.wasReset == false, "an ordinary close")
    }

    @Test("a device reset resets the server connection, without a word to the device")
    func deviceReset() {
        established()
        let before = delivered.packets.count
        send(.rst, seq: Self.deviceISN + 1)
        #expect(connector.tcp[key]?.wasReset == true)
        #expect(delivered.packets.count == before)
        #expect(relay.openFlowCount == 0)
    }

    @Test("a UDP exchange: the payload goes out on a connected socket, the answer comes back as a datagram")
    func udpRoundTrip() throws {
        let query = try PacketEmitter.udp(source: Self.device, destination: Self.resolver, payload: Data("query".utf8))
        relay.passthrough(try PacketParser.parse(query), datagram: query)
        let udpKey = FlowKey(proto: .udp, source: Self.device, destination: Self.resolver)
        #expect(connector.udp[udpKey]?.sent == [Data("query".utf8)])
        relay.serverDidReceive(udpKey, Data("answer".utf8))
        let answer = try #require(delivered.packets.last)
        #expect(answer.source == Self.resolver && answer.destination == Self.device)
        #expect(payload(answer) == "answer")
        #expect(relay.stats.udpFlowsOpened == 1)
        #expect(relay.stats.dnsQueriesSent == 1 && relay.stats.dnsRepliesReceived == 1)
    }

    @Test("a UDP socket that cannot be made is counted and the datagram dropped")
    func udpOpenFailure() throws {
        connector.refuseUDP = true
        let datagram = try PacketEmitter.udp(source: Self.device, destination: Self.resolver, payload: Data("q".utf8))
        relay.passthrough(try PacketParser.parse(datagram), datagram: datagram)
        #expect(relay.openFlowCount == 0)
        #expect(relay.stats.connectFailures == 1)
    }

    @Test("close and closeAll cancel the sockets of both protocols, a TCP leg with a reset: its connection was cut, not finished")
    func closing() throws {
        established()
        let datagram = try PacketEmitter.udp(source: Self.device, destination: Self.resolver, payload: Data("q".utf8))
        relay.passthrough(try PacketParser.parse(datagram), datagram: datagram)
        let udpKey = FlowKey(proto: .udp, source: Self.device, destination: Self.resolver)
        relay.close(udpKey)
        #expect(connector.udp[udpKey]?.cancelled == true)
        #expect(relay.openFlowCount == 1)
        relay.closeAll()
        #expect(connector.tcp[key]?.wasReset == true)
        #expect(relay.openFlowCount == 0)
    }

    @Test("closeAll after the device's FIN closes the server's leg as usual: the client finished, its last bytes still go")
    func closingAfterTheDevicesFin() throws {
        established()
        send([.fin, .ack], seq: Self.deviceISN + 1, ack: Self.ourISN + 1)
        #expect(connector.tcp[key]?.shutDown == true)
        relay.closeAll()
        #expect(connector.tcp[key]?.cancelled == true && connector.tcp[key]?.wasReset == false)
        #expect(relay.openFlowCount == 0)
    }

    @Test("a retransmit timer firing resends the unacknowledged SYN-ACK")
    func retransmit() throws {
        send(.syn, seq: Self.deviceISN)
        relay.serverDidConnect(key)
        let timer = try #require(connector.timers[key] ?? nil)
        relay.retransmitTimeout(for: key, generation: timer.generation)
        #expect(delivered.packets.count == 2)
        #expect(delivered.packets.last?.tcp?.flags == [.syn, .ack])
    }

    @Test("a SYN whose options do not parse is refused and counted, and opens nothing")
    func malformedOptions() throws {
        var datagram = [UInt8](try PacketEmitter.tcp(source: Self.device, destination: Self.server, sequence: Self.deviceISN,
                                                      acknowledgment: 0, flags: .syn, windowSize: 65_535,
                                                      options: TCPOptions(maximumSegmentSize: 1460)))
        // The MSS option's length byte claims more than the header holds.
        let optionStart = 20 + 20
        #expect(datagram[optionStart] == 2)
        datagram[optionStart + 1] = 40
        let data = Data(datagram)
        relay.passthrough(try PacketParser.parse(data), datagram: data)
        #expect(relay.stats.segmentsRefused == 1)
        #expect(connector.tcp.isEmpty)
        #expect(delivered.packets.isEmpty)
    }

    // MARK: A shell that reports from inside the relay's own call

    var resets: [ParsedPacket] { delivered.packets.filter { $0.tcp?.flags.contains(.rst) == true } }

    @Test("a server failure reported from inside the relay's own send ends the flow once: one RST, nothing after it, no timer, one close")
    func failureDuringSend() throws {
        established()
        relay.serverDidReceive(key, Data("hello".utf8))           // in flight: the timer is armed
        #expect((connector.timers[key] ?? nil) != nil)
        let relay = relay, key = key
        connector.tcp[key]?.onSend = { relay.serverDidFail(key) }
        send([.ack, .psh], seq: Self.deviceISN + 1, ack: Self.ourISN + 1, "GET /")

        #expect(resets.count == 1)
        #expect(delivered.packets.last?.tcp?.flags == .rst, "nothing reaches the device after its RST")
        #expect(relay.openFlowCount == 0)
        #expect(relay.stats.tcpFlowsClosed == 1)
        #expect((connector.timers[key] ?? nil) == nil, "no timer stays armed for a flow that is gone")
        #expect(connector.tcp[key]?.cancelled == true)

        let count = delivered.packets.count
        relay.retransmitTimeout(for: key, generation: 1)
        relay.retransmitTimeout(for: key, generation: 2)
        relay.closeAll()
        #expect(delivered.packets.count == count)
        #expect(relay.stats.tcpFlowsClosed == 1)
    }

    @Test("a refusal reported while the connection is being opened answers the SYN once and leaves no flow behind")
    func failureDuringOpen() throws {
        let relay = relay
        connector.onOpen = { key in relay.serverDidFail(key) }
        send(.syn, seq: Self.deviceISN)

        #expect(resets.count == 1)
        #expect(resets.first?.tcp?.flags == [.rst, .ack])
        #expect(relay.openFlowCount == 0)
        #expect(relay.stats.connectFailures == 1)
        #expect(relay.stats.tcpFlowsClosed == 1)
        #expect(connector.tcp[key]?.cancelled == true)
        relay.closeAll()
        #expect(relay.stats.tcpFlowsClosed == 1)
    }

    @Test("a drain reported from inside the relay's send is handled after it, and not lost")
    func drainDuringSend() throws {
        established()
        let relay = relay, key = key
        connector.tcp[key]?.onSend = { relay.serverDidDrain(key, byteCount: 5) }
        send([.ack, .psh], seq: Self.deviceISN + 1, ack: Self.ourISN + 1, "GET /")
        #expect(connector.tcp[key]?.sent == [Data("GET /".utf8)])
        #expect(relay.openFlowCount == 1)
        #expect(resets.isEmpty)
        #expect(delivered.packets.last?.tcp?.acknowledgment == Self.deviceISN + 1 + 5)
        // The drain counted: the next segment offers the whole window again.
        relay.serverDidReceive(key, Data("x".utf8))
        #expect(delivered.packets.last?.tcp?.windowSize == UInt16(Self.window))
    }
}
