import Foundation
import Testing
import Shared
@testable import PacketTunnel

/// The segments the flow decides on, through `PacketEmitter` and back through `PacketParser`.
@Suite struct TCPRelayFlowWireTests {
    typealias F = RelayFixture

    @Test(arguments: [("198.18.0.1", "10.7.0.2"), ("fd00:18::1", "fd00:7::2")])
    func aSynAckLandsOnTheWireWithItsSequenceAckFlagsWindowAndOptions(addresses: (String, String)) throws {
        let server = IPEndpoint(address: IPAddress(parsing: addresses.0)!, port: 443)
        let device = IPEndpoint(address: IPAddress(parsing: addresses.1)!, port: 51000)
        let segment = OutboundSegment(sequence: SequenceNumber(UInt32.max - 1), acknowledgment: 0x8000_0001,
                                      flags: [.syn, .ack], window: 29200, maximumSegmentSize: 1460, windowScale: 0)
        let datagram = try segment.emit(source: server, destination: device)
        let parsed = try PacketParser.parse(datagram)
        let tcp = try #require(parsed.tcp)
        #expect(parsed.source == server && parsed.destination == device)
        #expect(tcp.sequence == UInt32.max - 1 && tcp.acknowledgment == 0x8000_0001)
        #expect(tcp.flags == [.syn, .ack] && tcp.windowSize == 29200)
        #expect(tcp.dataOffsetBytes == 28 && tcp.payloadRange.isEmpty)
        let inbound = try InboundSegment(tcp, in: datagram)
        #expect(inbound.maximumSegmentSize == 1460 && inbound.windowScale == 0)
    }

    @Test func aDataSegmentLandsOnTheWireWithItsPayloadAndNoOptions() throws {
        let segment = OutboundSegment(sequence: 5001, acknowledgment: 1006, flags: [.ack, .psh], window: 512,
                                      payload: bytes("hello"))
        let datagram = try segment.emit(source: F.server, destination: F.device)
        let tcp = try #require(try PacketParser.parse(datagram).tcp)
        #expect(tcp.dataOffsetBytes == 20)
        #expect(datagram[tcp.payloadRange] == bytes("hello"))
        let inbound = try InboundSegment(tcp, in: datagram)
        #expect(inbound == InboundSegment(sequence: 5001, acknowledgment: 1006, flags: [.ack, .psh], window: 512,
                                          payload: bytes("hello")))
    }

    @Test func aDevicesSynParsedOffTheWireOpensAFlowWithItsMSS() throws {
        let syn = try PacketEmitter.tcp(source: F.device, destination: F.server, sequence: 1000, acknowledgment: 0,
                                        flags: .syn, windowSize: 64240,
                                        options: TCPOptions(maximumSegmentSize: 100, windowScale: 7))
        let inbound = try InboundSegment(try #require(try PacketParser.parse(syn).tcp), in: syn)
        var flow = F.fresh()
        #expect(flow.receiveFromDevice(inbound) == [.connectToServer])
        _ = flow.serverDidConnect()
        _ = flow.receiveFromDevice(fromDevice(1001, ack: 5001, window: 10))            // 10 << 7 = 1280
        #expect(flow.receiveFromServer(pattern(250)) == [
            toDevice(5001, ack: 1001, .ack, window: 32_768, pattern(100)),          // ours: 1 MiB >> 5
            toDevice(5101, ack: 1001, .ack, window: 32_768, pattern(100, from: 100)),
            toDevice(5201, ack: 1001, [.ack, .psh], window: 32_768, pattern(50, from: 200)),
        ])
    }
}
