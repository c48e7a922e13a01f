import Foundation
import PacketTunnel
import Posix
import Shared
import TestSupport
import Testing
@testable import Linux

/// The whole tunnel — runtime, event loop, pipeline, relay and its real sockets — over an
/// in-memory device, without root, a TUN or a namespace: the test plays the monitored side's IP
/// stack with datagrams built by `PacketEmitter`, and real echo servers listen on 127.0.0.1.
@Suite("The tunnel runtime over an in-memory device")
struct TunnelRuntimeTests {
    static let deviceAddress = TunnelAddressing.ipv4Address
    static let loopback = IPAddress(parsing: "127.0.0.1")!

    /// The history as the pipeline hands it over: every batch, kept.
    final class RecordingStore: FlowPersisting, @unchecked Sendable {
        private let lock = NSLock()
        private var batches: [FlowStoreBatch] = []
        func persist(_ batch: FlowStoreBatch) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            batches.append(batch)
            return true
        }
        var outcomes: PersistenceOutcomes { PersistenceOutcomes() }
        nonisolated(nonsending) func drain() async {}
        /// The latest record of each flow with `key`, oldest flow first.
        func flows(of key: FlowKey) -> [FlowRecord] {
            lock.lock()
            defer { lock.unlock() }
            var latest: [UInt64: FlowRecord] = [:]
            for record in batches.flatMap(\.flows) where record.key == key { latest[record.firstSeen] = record }
            return latest.values.sorted { $0.firstSeen < $1.firstSeen }
        }
    }

    final class QuietLiveFeed: LiveFeedSink {
        func publish(_ meta: PacketMeta) -> Bool { true }
        func notifyConsumer() {}
    }

    /// A running tunnel over a `MemoryPacketDevice`.
    final class Tunnel {
        let device: MemoryPacketDevice
        let store = RecordingStore()
        let runtime: TunnelRuntime<MemoryPacketDevice>
        /// Datagrams given to the device, and their bytes.
        private(set) var injected = 0
        private(set) var injectedBytes = 0
        private(set) var takenBytes = 0

        init(onFailure: (@Sendable (TunnelFailure) -> Void)? = nil) throws {
            device = try MemoryPacketDevice()
            let pipeline = PacketPipeline(liveFeed: QuietLiveFeed(), capture: nil, store: store,
                                          config: .init(captureEnabled: false, anchor: MonotonicAnchor.now()))
            runtime = try TunnelRuntime(device: device, pipeline: pipeline)
            try runtime.start(onFailure: onFailure)
        }

        func inject(_ datagram: Data) {
            injected += 1
            injectedBytes += datagram.count
            device.inject(datagram)
        }

        /// The device sends a TCP segment; a SYN carries an MSS, as a stack's does.
        func sendTCP(_ flags: TCPFlags, from device: IPEndpoint, to server: IPEndpoint, seq: UInt32, ack: UInt32,
                     _ payload: String) throws {
            try sendTCP(flags, from: device, to: server, seq: seq, ack: ack, bytes: Data(payload.utf8))
        }

        func sendTCP(_ flags: TCPFlags, from device: IPEndpoint, to server: IPEndpoint, seq: UInt32, ack: UInt32,
                     bytes: Data) throws {
            inject(try PacketEmitter.tcp(source: device, destination: server, sequence: seq,
                                         acknowledgment: ack, flags: flags, windowSize: 65_535,
                                         options: flags.contains(.syn) ? TCPOptions(maximumSegmentSize: 1460) : TCPOptions(),
                                         payload: bytes))
        }

        /// The next datagram the tunnel wrote to the device, parsed.
        func next() -> (packet: ParsedPacket, bytes: Data)? {
            guard let datagram = device.next() else { return nil }
            takenBytes += datagram.count
            return (try! PacketParser.parse(datagram), datagram)
        }

        /// Asks the loop until `condition` holds of the runtime, for up to five seconds.
        func eventually(_ condition: @escaping @Sendable (TunnelRuntime<MemoryPacketDevice>) -> Bool) async -> Bool {
            for _ in 0..<500 {
                if await runtime.onLoop(condition) { return true }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return false
        }
    }

    static func payload(_ taken: (packet: ParsedPacket, bytes: Data)) -> Data {
        let range = taken.packet.tcp?.payloadRange ?? taken.packet.udp?.payloadRange ?? 0..<0
        return taken.bytes[range]
    }

    @Test("a whole TCP conversation with a loopback echo server: handshake, data both ways, FIN both ways; recorded, and closed once")
    func tcpConversation() async throws {
        let server = try LoopbackEcho.tcp()
        defer { server.stop() }
        let tunnel = try Tunnel()
        let device = IPEndpoint(address: Self.deviceAddress, port: 40_000)
        let key = FlowKey(proto: .tcp, source: device, destination: server.endpoint)
        let isn: UInt32 = 1_000
        func send(_ flags: TCPFlags, seq: UInt32, ack: UInt32 = 0, _ payload: String = "") throws {
            try tunnel.sendTCP(flags, from: device, to: server.endpoint, seq: seq, ack: ack, payload)
        }

        try send(.syn, seq: isn)
        let synAck = try #require(tunnel.next())
        #expect(synAck.packet.tcp?.flags == [.syn, .ack])
        #expect(synAck.packet.tcp?.acknowledgment == isn + 1)
        #expect(synAck.packet.source == server.endpoint && synAck.packet.destination == device)
        let ours = try #require(synAck.packet.tcp?.sequence)
        try send(.ack, seq: isn + 1, ack: ours + 1)

        let message = "hello through the tunnel"
        let length = UInt32(message.utf8.count)
        try send([.ack, .psh], seq: isn + 1, ack: ours + 1, message)
        // Our ACK of the message and the echo come back, in either order.
        var echoed = Data()
        var acknowledged = false
        while echoed.count < message.utf8.count || !acknowledged {
            let segment = try #require(tunnel.next())
            let tcp = try #require(segment.packet.tcp)
            if tcp.acknowledgment == isn + 1 + length { acknowledged = true }
            let bytes = Self.payload(segment)
            if !bytes.isEmpty {
                #expect(tcp.sequence == ours + 1 + UInt32(echoed.count))
                echoed.append(bytes)
            }
        }
        #expect(String(decoding: echoed, as: UTF8.self) == message)
        try send(.ack, seq: isn + 1 + length, ack: ours + 1 + length)

        // Our FIN: the server reads end of stream and closes, and its FIN comes back as ours.
        try send([.fin, .ack], seq: isn + 1 + length, ack: ours + 1 + length)
        var fin: TCPHeader?
        while fin == nil {
            let segment = try #require(tunnel.next())
            if segment.packet.tcp?.flags.contains(.fin) == true { fin = segment.packet.tcp }
        }
        #expect(fin?.sequence == ours + 1 + length)
        #expect(fin?.acknowledgment == isn + 2 + length)
        try send(.ack, seq: isn + 2 + length, ack: ours + 2 + length)

        #expect(await tunnel.eventually { $0.relay.openFlowCount == 0 })
        #expect(server.received.bytes == Data(message.utf8))
        #expect(server.received.endOfStream)
        #expect(tunnel.device.next(timeout: 0.2) == nil, "nothing after the conversation ended")
        let (relay, pipeline) = await tunnel.runtime.onLoop { ($0.relay.stats, $0.pipeline.stats) }
        #expect(relay.tcpFlowsOpened == 1 && relay.tcpFlowsClosed == 1)
        #expect(relay.bytesFromDevice == UInt64(length) && relay.bytesToDevice == UInt64(length))
        #expect(pipeline.packetsHandled == UInt64(tunnel.injected))
        #expect(pipeline.reinjectedRecorded == UInt64(tunnel.device.totalWritten))
        await tunnel.runtime.stop()
        // The history has the conversation, both directions counted from whole datagrams — the
        // device's last ACK too: an ended flow stays closing for it rather than opening a flow of
        // one packet.
        let flows = tunnel.store.flows(of: key)
        #expect(flows.count == 1)
        let conversation = try #require(flows.first)
        #expect(conversation.packetCount == UInt64(tunnel.injected + tunnel.device.totalWritten))
        #expect(conversation.bytesOut == UInt64(tunnel.injectedBytes))
        #expect(conversation.bytesIn == UInt64(tunnel.takenBytes))
    }

    @Test("the device's reset reaches the server as a reset, not an end of stream, and ends the flow")
    func deviceResetReachesTheServer() async throws {
        let server = try LoopbackEcho.tcp()
        defer { server.stop() }
        let tunnel = try Tunnel()
        let device = IPEndpoint(address: Self.deviceAddress, port: 40_001)
        let isn: UInt32 = 5_000
        func send(_ flags: TCPFlags, seq: UInt32, ack: UInt32 = 0, _ payload: String = "") throws {
            try tunnel.sendTCP(flags, from: device, to: server.endpoint, seq: seq, ack: ack, payload)
        }
        try send(.syn, seq: isn)
        let ours = try #require(tunnel.next()?.packet.tcp?.sequence)
        try send(.ack, seq: isn + 1, ack: ours + 1)
        try send([.ack, .psh], seq: isn + 1, ack: ours + 1, "ping")
        // The server has the bytes (its echo comes back) before the reset goes.
        var echoed = Data()
        while echoed.count < 4 { echoed.append(Self.payload(try #require(tunnel.next()))) }
        try send(.rst, seq: isn + 5)

        #expect(await tunnel.eventually { $0.relay.openFlowCount == 0 })
        #expect(await TestSupport.eventually(within: .seconds(5)) { server.wasReset || server.received.endOfStream })
        #expect(server.wasReset, "the server read a reset")
        #expect(!server.received.endOfStream, "not an ordinary end of stream")
        #expect(server.received.bytes == Data("ping".utf8))
        await tunnel.runtime.stop()
    }

    @Test("an upload the server's socket takes only part of arrives whole: what the kernel left is copied out of the device's read buffer")
    func uploadThroughAShortWriteArrivesWhole() async throws {
        let server = try LoopbackEcho.tcp(holdingReads: true)
        defer { server.stop() }
        let tunnel = try Tunnel()
        let device = IPEndpoint(address: Self.deviceAddress, port: 40_002)
        let isn: UInt32 = 9_000
        let upload = Data((0..<(4 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 10) })
        try tunnel.sendTCP(.syn, from: device, to: server.endpoint, seq: isn, ack: 0, "")
        let ours = try #require(tunnel.next()?.packet.tcp?.sequence)
        // Offsets in each stream: ours sent and acknowledged, the echo received in order.
        var sent = 0, acknowledged = 0, window = 0, echoed = 0
        var heldWhileStalled = false
        func send(_ flags: TCPFlags, from offset: Int, _ bytes: Data = Data()) throws {
            try tunnel.sendTCP(flags, from: device, to: server.endpoint, seq: isn + 1 + UInt32(offset),
                               ack: ours + 1 + UInt32(echoed), bytes: bytes)
        }
        /// Our ACK and window, and the echo, acknowledged in order so the server can go on sending.
        func absorb(_ answer: Data) throws {
            let parsed = try PacketParser.parse(answer)
            let tcp = try #require(parsed.tcp)
            let acknowledges = Int(tcp.acknowledgment &- (isn + 1))
            if acknowledges > acknowledged && acknowledges <= upload.count { acknowledged = acknowledges }
            window = Int(tcp.windowSize)
            let bytes = Self.payload((parsed, answer))
            if !bytes.isEmpty, Int(tcp.sequence &- (ours + 1)) == echoed {
                echoed += bytes.count
                try send(.ack, from: sent)
            }
        }
        try send(.ack, from: 0)
        window = 65_535
        let deadline = ContinuousClock.now + .seconds(60)
        while (acknowledged < upload.count || server.receivedByteCount < upload.count), ContinuousClock.now < deadline {
            // One segment at a time, each acknowledged before the next: each is a read of its own,
            // so one the socket did not take is still in the read buffer when the next read comes.
            if sent == acknowledged && sent < upload.count && window > 0 {
                let count = min(1_400, upload.count - sent, window)
                try send([.ack, .psh], from: sent, upload.subdata(in: sent..<(sent + count)))
                sent += count
            }
            guard let answer = tunnel.device.next(timeout: 1) else {
                // Nothing moves: the server's socket is full. Only then may the server read.
                if !heldWhileStalled { heldWhileStalled = acknowledged < upload.count }
                server.releaseReads()
                // What went beyond the window goes again; a byte already acknowledged asks the relay
                // for its current window.
                sent = acknowledged
                try send(.ack, from: max(0, acknowledged - 1), upload.subdata(in: max(0, acknowledged - 1)..<max(1, acknowledged)))
                continue
            }
            try absorb(answer)
        }
        #expect(heldWhileStalled, "the relay had to keep bytes the server's socket did not take")
        #expect(acknowledged == upload.count)
        try send([.fin, .ack], from: sent)
        while !server.received.endOfStream, ContinuousClock.now < deadline {
            if let answer = tunnel.device.next(timeout: 0.1) { try absorb(answer) }
        }
        #expect(server.received.endOfStream)
        #expect(server.received.bytes == upload, "the server read the upload as sent")
        await tunnel.runtime.stop()
    }

    @Test("a UDP datagram to a loopback echo comes back as a datagram to the device; the flow is recorded")
    func udpExchange() async throws {
        let server = try LoopbackEcho.udp()
        defer { server.stop() }
        let tunnel = try Tunnel()
        let device = IPEndpoint(address: Self.deviceAddress, port: 40_001)
        tunnel.inject(try PacketEmitter.udp(source: device, destination: server.endpoint, payload: Data("ping".utf8)))
        let answer = try #require(tunnel.next())
        #expect(answer.packet.udp != nil)
        #expect(answer.packet.source == server.endpoint && answer.packet.destination == device)
        #expect(Self.payload(answer) == Data("ping".utf8))
        #expect(server.received.bytes == Data("ping".utf8))
        let (relay, pipeline) = await tunnel.runtime.onLoop { ($0.relay.stats, $0.pipeline.stats) }
        #expect(relay.udpFlowsOpened == 1)
        #expect(relay.bytesFromDevice == 4 && relay.bytesToDevice == 4)
        #expect(pipeline.packetsHandled == 1 && pipeline.reinjectedRecorded == 1)
        await tunnel.runtime.stop()
        let record = try #require(tunnel.store.flows(of: FlowKey(proto: .udp, source: device, destination: server.endpoint)).last)
        #expect(record.packetCount == 2)
        #expect(record.bytesOut == 32 && record.bytesIn == 32)   // 20 (IPv4) + 8 (UDP) + 4, each way
    }

    @Test("a datagram to a closed port is answered with the kernel's refusal: a port unreachable quoting it, the flow kept, the answer counted")
    func udpClosedPort() async throws {
        // A port nothing listens on: bound once to learn a free one, then closed.
        let probe = try LoopbackEcho.udp()
        let closed = probe.endpoint
        probe.stop()
        let tunnel = try Tunnel()
        let device = IPEndpoint(address: Self.deviceAddress, port: 40_002)
        let sent = try PacketEmitter.udp(source: device, destination: closed, payload: Data("anyone?".utf8))
        tunnel.inject(sent)
        let answer = try #require(tunnel.next(), "no answer to a datagram for a closed port")
        #expect(answer.packet.ip.proto == .icmp)
        #expect(answer.packet.source.address == closed.address && answer.packet.destination.address == device.address)
        #expect(answer.bytes[20] == 3 && answer.bytes[21] == 3, "destination unreachable, port unreachable")
        #expect(answer.bytes.suffix(from: 28) == sent, "the datagram quoted whole")
        #expect(await tunnel.eventually { $0.relay.openFlowCount == 1 }, "the flow stays for a later datagram")
        let relay = await tunnel.runtime.onLoop { $0.relay.stats }
        #expect(relay.portUnreachableAnswers == 1 && relay.emitterFailures == 0)
        await tunnel.runtime.stop()
    }

    @Test("an ICMP echo request is recorded by the pipeline and not relayed: counted, and nothing comes back")
    func icmpIsRecordedOnly() async throws {
        let tunnel = try Tunnel()
        let request = Self.icmpEchoRequest(from: Self.deviceAddress, to: Self.loopback)
        tunnel.inject(request)
        #expect(await tunnel.eventually { $0.pipeline.stats.packetsHandled == 1 })
        #expect(tunnel.device.next(timeout: 0.3) == nil)
        let (open, relay, pipeline) = await tunnel.runtime.onLoop { ($0.relay.openFlowCount, $0.relay.stats, $0.pipeline.stats) }
        #expect(open == 0)
        #expect(relay.bytesFromDevice == 0 && relay.tcpFlowsOpened == 0 && relay.udpFlowsOpened == 0)
        #expect(pipeline.packetsDroppedUnparseable == 0 && pipeline.packetsDroppedNoLocalAddress == 0)
        #expect(pipeline.flowsOpened == 1)
        await tunnel.runtime.stop()
        let key = try PacketParser.parse(request).flowKey
        #expect(key.proto == .icmp)
        let record = try #require(tunnel.store.flows(of: key).last)
        #expect(record.packetCount == 1 && record.bytesOut == UInt64(request.count) && record.bytesIn == 0)
    }

    /// An IPv4 ICMP echo request (RFC 792) with both checksums right.
    static func icmpEchoRequest(from source: IPAddress, to destination: IPAddress) -> Data {
        let body: [UInt8] = [8, 0, 0, 0, 0x12, 0x34, 0x00, 0x01] + Array("ping".utf8)
        var header: [UInt8] = [0x45, 0, 0, UInt8(20 + body.count), 0, 0, 0x40, 0, 64, 1, 0, 0]
        header += source.bytes + destination.bytes
        func checksummed(_ bytes: inout [UInt8], at offset: Int) {
            let sum = bytes.withUnsafeBytes { InternetChecksum.checksum($0) }
            bytes[offset] = UInt8(sum >> 8)
            bytes[offset + 1] = UInt8(sum & 0xFF)
        }
        var icmp = body
        checksummed(&icmp, at: 2)
        checksummed(&header, at: 10)
        return Data(header + icmp)
    }
}
