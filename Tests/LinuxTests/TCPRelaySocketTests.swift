import Foundation
import Linux
import PacketTunnel
import Posix
import Shared
import Testing

/// The relay over its socket shell with the kernel scripted: real datagrams from the device, the
/// real `Relay` and `SocketRelayConnector`, and every syscall's answer chosen by the test — so the
/// orderings a real network makes rare (a reset in the middle of a write) run every time.
@Suite("The relay's TCP legs against a scripted kernel")
struct TCPRelaySocketTests {
    static let device = IPEndpoint(address: TunnelAddressing.ipv4Address, port: 40_000)
    static let server = IPEndpoint(address: IPAddress(parsing: "198.19.0.2")!, port: 80)
    static let deviceISN: UInt32 = 1_000
    static let ourISN: UInt32 = 70_000

    final class Device { var packets: [ParsedPacket] = [] }

    let scripted = ScriptedRelayKernel()
    let loop: EventLoop
    let connector: SocketRelayConnector
    let relay: Relay
    let device = Device()
    let key = FlowKey(proto: .tcp, source: Self.device, destination: Self.server)

    init() throws {
        loop = try EventLoop()   // never run: only its timers are used, and only counted
        connector = SocketRelayConnector(loop: loop, kernel: scripted.kernel)
        let device = device
        relay = Relay(connector: connector, initialSequence: { Self.ourISN }) { datagram, _ in
            device.packets.append(try! PacketParser.parse(Data(datagram)))
        }
        connector.relay = relay
    }

    func send(_ flags: TCPFlags, seq: UInt32, ack: UInt32 = 0, _ payload: String = "") {
        let datagram = try! PacketEmitter.tcp(source: Self.device, destination: Self.server, sequence: seq,
                                              acknowledgment: ack, flags: flags, windowSize: 65_535,
                                              payload: Data(payload.utf8))
        relay.passthrough(try! PacketParser.parse(datagram), datagram: datagram)
    }

    var resets: [ParsedPacket] { device.packets.filter { $0.tcp?.flags.contains(.rst) == true } }

    /// SYN, a connect that succeeds at once, the device's ACK of our SYN-ACK.
    func established() throws -> ScriptedRelayKernel.Socket {
        scripted.connectAnswers = [.connected]
        send(.syn, seq: Self.deviceISN)
        #expect(device.packets.last?.tcp?.flags == [.syn, .ack])
        send(.ack, seq: Self.deviceISN + 1, ack: Self.ourISN + 1)
        return try #require(scripted.sockets.first)
    }

    @Test("connect succeeds, the first send answers ECONNRESET: one RST to the device, the flow gone and closed once, no timer, nothing after")
    func resetOnFirstSend() throws {
        let socket = try established()
        // Server bytes in flight toward the device, so a retransmit timer is armed.
        socket.incoming = Data("hello".utf8)
        socket.receiveAnswers = [.received(5)]
        scripted.fire(socket, .readable)
        #expect(device.packets.last?.tcp?.sequence == Self.ourISN + 1)
        #expect(connector.armedTimerCount == 1)

        socket.sendAnswers = [.failed(ECONNRESET)]
        send([.ack, .psh], seq: Self.deviceISN + 1, ack: Self.ourISN + 1, "GET /")

        #expect(resets.count == 1)
        #expect(device.packets.last?.tcp?.flags == .rst, "nothing reaches the device after its RST")
        #expect(relay.openFlowCount == 0)
        #expect(relay.stats.tcpFlowsClosed == 1)
        #expect(connector.armedTimerCount == 0)
        #expect(socket.closed)
        #expect(scripted.handlers.isEmpty)
        #expect(scripted.log.suffix(3) == ["send 5 → failed(104)", "unregister", "close"])

        let count = device.packets.count
        scripted.fire(socket, [.readable, .error])
        relay.closeAll()
        #expect(device.packets.count == count)
        #expect(relay.stats.tcpFlowsClosed == 1)
    }

    @Test("a short write, then EAGAIN: the rest goes when writable, and the device's FIN becomes shutdown only after the last byte")
    func shortWriteThenShutdown() throws {
        let socket = try established()
        socket.sendAnswers = [.processed(4)]
        send([.ack, .psh], seq: Self.deviceISN + 1, ack: Self.ourISN + 1, "0123456789")
        send([.ack, .fin], seq: Self.deviceISN + 11, ack: Self.ourISN + 1)
        #expect(!scripted.log.contains("shutdown"), "the FIN waits for the queued bytes")
        #expect(scripted.interests[socket.descriptor] == .both)

        socket.sendAnswers = [.wouldBlock]
        scripted.fire(socket, .writable)
        #expect(!scripted.log.contains("shutdown"))
        scripted.fire(socket, .writable)
        #expect(socket.written == Data("0123456789".utf8))
        #expect(Array(scripted.log.suffix(6)) == ["send 10 → processed(4)", "modify read+write", "send 6 → wouldBlock",
                                                  "send 6 → processed(6)", "modify read", "shutdown"])
        #expect(scripted.log.filter { $0 == "shutdown" }.count == 1)
        #expect(relay.openFlowCount == 1)
        #expect(resets.isEmpty)
    }

    @Test("a connect refused after it started answers the SYN with one RST+ACK and leaves nothing behind")
    func refusedLater() throws {
        scripted.connectAnswers = [.inProgress]
        send(.syn, seq: Self.deviceISN)
        let socket = try #require(scripted.sockets.first)
        #expect(device.packets.isEmpty)
        socket.connectAnswers = [.failed(SocketError(.connect, remote: Self.server, errno: ECONNREFUSED))]
        scripted.fire(socket, .error)
        #expect(resets.count == 1)
        #expect(resets.first?.tcp?.flags == [.rst, .ack])
        #expect(relay.openFlowCount == 0)
        #expect(relay.stats.connectFailures == 1)
        #expect(socket.closed)
        #expect(scripted.handlers.isEmpty)
    }

    @Test("no socket at all: the SYN is refused at once, from inside the relay's own call, exactly once")
    func noSocket() throws {
        scripted.connectAnswers = [nil]
        send(.syn, seq: Self.deviceISN)
        #expect(resets.count == 1)
        #expect(relay.openFlowCount == 0)
        #expect(relay.stats.connectFailures == 1)
        #expect(relay.stats.tcpFlowsClosed == 1)
        #expect(connector.armedTimerCount == 0)
    }

    @Test("the server's FIN while device bytes wait: our FIN reaches the device, the write still finishes, then nothing is watched")
    func serverFinWhileWriting() throws {
        let socket = try established()
        socket.sendAnswers = [.wouldBlock]
        send([.ack, .psh], seq: Self.deviceISN + 1, ack: Self.ourISN + 1, "abc")
        socket.receiveAnswers = [.endOfStream]
        scripted.fire(socket, .readable)
        #expect(device.packets.last?.tcp?.flags.contains(.fin) == true)
        #expect(scripted.log.suffix(2) == ["receive → endOfStream", "modify write"])
        scripted.fire(socket, .writable)
        #expect(socket.written == Data("abc".utf8))
        #expect(scripted.log.suffix(2) == ["send 3 → processed(3)", "unregister"])
        scripted.fire(socket, .hangup)   // not watched any more: nothing
        #expect(scripted.log.last == "unregister")
        #expect(relay.openFlowCount == 1)
        #expect(resets.isEmpty)
    }

    @Test("the device's reset while its bytes wait: the socket is closed with a reset, once, the bytes dropped, nothing more watched")
    func deviceResetAbortsTheSocket() throws {
        let socket = try established()
        socket.sendAnswers = [.wouldBlock]
        send([.ack, .psh], seq: Self.deviceISN + 1, ack: Self.ourISN + 1, "abc")
        send(.rst, seq: Self.deviceISN + 4)
        #expect(socket.closed)
        #expect(scripted.log.suffix(2) == ["unregister", "abort"])
        #expect(!scripted.log.contains("close"), "an ordinary close would tell the server the stream ended")
        scripted.fire(socket, .writable)   // gone: nothing is sent
        #expect(socket.written.isEmpty)
        #expect(relay.openFlowCount == 0)
        #expect(resets.isEmpty, "a reset is not answered")
    }
}
