import Foundation
import Shared
import Testing
@testable import PacketTunnel

/// The relay toward a device that offloads segmentation and checksums (a TUN with the vnet
/// header): long segments with what the device is to finish, checked by finishing them as the
/// kernel does (RFC 1071 over the transport from its checksum start, the field included).
@Suite("The relay with segmentation offload")
struct RelayOffloadTests {
    static let device = IPEndpoint(address: TunnelAddressing.ipv4Address, port: 40_000)
    static let server = IPEndpoint(address: IPAddress(parsing: "198.19.0.2")!, port: 80)
    static let deviceISN: UInt32 = 1_000
    static let ourISN: UInt32 = 70_000

    final class Written { var datagrams: [(bytes: Data, offload: DeviceOffload?)] = [] }
    let written = Written()
    let connector = RelayTests.ScriptedConnector()
    let relay: Relay
    var key: FlowKey { FlowKey(proto: .tcp, source: Self.device, destination: Self.server) }

    init() {
        var config = TCPRelayFlow.Config(maximumSegmentSize: 1460)
        config.segmentationOffload = true
        let written = written
        relay = Relay(connector: connector, config: config, initialSequence: { Self.ourISN }) { datagram, offload in
            written.datagrams.append((Data(datagram), offload))   // the relay reuses its buffer
        }
    }

    func send(_ flags: TCPFlags, seq: UInt32, ack: UInt32 = 0) {
        let datagram = try! PacketEmitter.tcp(source: Self.device, destination: Self.server, sequence: seq,
                                              acknowledgment: ack, flags: flags, windowSize: 65_535, payload: Data())
        relay.passthrough(try! PacketParser.parse(datagram), datagram: datagram)
    }

    @Test("100 000 server bytes go as one segment the window allows, for the device to cut at its MSS, then the window's rest whole")
    func longSegments() throws {
        send(.syn, seq: Self.deviceISN)
        relay.serverDidConnect(key)
        send(.ack, seq: Self.deviceISN + 1, ack: Self.ourISN + 1)
        written.datagrams.removeAll()
        let body = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        relay.serverDidReceive(key, body)

        // The device offered a 65 535-byte window and no MSS (so RFC 9293's 536 for IPv4).
        let lengths = try written.datagrams.map { try #require(PacketParser.parse($0.bytes).tcp?.payloadRange.count) }
        #expect(lengths == [TCPRelayFlow.Config.largestOffloadedPayload, 65_535 - TCPRelayFlow.Config.largestOffloadedPayload])
        #expect(written.datagrams.first?.offload == DeviceOffload(version: .v4, tcpHeaderLength: 20, segmentSize: 536))
        #expect(written.datagrams.last?.offload == DeviceOffload(version: .v4, tcpHeaderLength: 20, segmentSize: nil))
    }

    @Test("each checksum is the pseudo-header's sum, which the kernel's completion turns into the whole datagram's")
    func partialChecksums() throws {
        send(.syn, seq: Self.deviceISN)
        relay.serverDidConnect(key)
        send(.ack, seq: Self.deviceISN + 1, ack: Self.ourISN + 1)
        relay.serverDidReceive(key, Data("HTTP/1.1 200 OK\r\n\r\n".utf8))
        for (bytes, offload) in written.datagrams {
            let offload = try #require(offload)
            let packet = try PacketParser.parse(bytes)
            let tcp = try #require(packet.tcp)
            // The kernel's completion (and the capture's): the sum from csum_start to the end, the
            // field as written, complemented into the field.
            var finished = bytes
            finished.withUnsafeMutableBytes { InternetChecksum.completePartial(in: $0, start: offload.ipHeaderLength, offset: 16) }
            let completed = finished.withUnsafeBytes { $0.load(fromByteOffset: offload.ipHeaderLength + 16, as: UInt16.self).bigEndian }
            let whole = try PacketEmitter.tcp(source: Self.server, destination: Self.device, sequence: tcp.sequence,
                                              acknowledgment: tcp.acknowledgment, flags: tcp.flags, windowSize: tcp.windowSize,
                                              options: TCPOptions(maximumSegmentSize: tcp.flags.contains(.syn) ? 1460 : nil),
                                              payload: bytes[tcp.payloadRange])
            let expected = whole.withUnsafeBytes { $0.load(fromByteOffset: 20 + 16, as: UInt16.self).bigEndian }
            #expect(completed == expected, "flags \(tcp.flags)")
        }
        #expect(written.datagrams.count == 2)   // the SYN-ACK and the answer
    }
}
