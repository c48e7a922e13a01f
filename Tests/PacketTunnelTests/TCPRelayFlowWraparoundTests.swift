import Foundation
import Testing
import Shared
@testable import PacketTunnel

/// Both sequence spaces crossing 2³² → 0 mid-stream.
@Suite struct TCPRelayFlowWraparoundTests {
    typealias F = RelayFixture

    @Test func deviceDataAcrossTheWrapIsAcknowledgedAndSplicedInOrder() {
        let deviceISN = SequenceNumber(UInt32.max - 3)                 // first data byte at max - 2
        var flow = F.established(deviceISN: deviceISN)
        // 5 bytes ahead of the wrap's gap, then the 5 before it.
        #expect(flow.receiveFromDevice(fromDevice(2, ack: 5001, .ack, bytes("FGHIJ")))
                == [toDevice(5001, ack: deviceISN + 1)])
        #expect(flow.receiveFromDevice(fromDevice(deviceISN + 1, ack: 5001, .ack, bytes("ABCDE")))
                == [.sendToServer(bytes("ABCDEFGHIJ")), toDevice(5001, ack: 7)])
        #expect(flow.receiveFromDevice(fromDevice(deviceISN + 1, ack: 5001, .ack, bytes("ABCDEFGH")))
                == [toDevice(5001, ack: 7)])
    }

    @Test func serverDataAcrossTheWrapIsSegmentedAcknowledgedAndFreed() {
        let ourISN = SequenceNumber(UInt32.max - 1)                    // first data byte at max
        var flow = F.established(ourISN: ourISN, mss: 4)
        #expect(flow.receiveFromServer(bytes("0123456789")) == [
            toDevice(SequenceNumber(UInt32.max), ack: 1001, .ack, bytes("0123")),
            toDevice(3, ack: 1001, .ack, bytes("4567")),
            toDevice(7, ack: 1001, [.ack, .psh], bytes("89")),
        ])
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 3)) == [])
        #expect(flow.retransmitTimeout(generation: flow.retransmitTimer!.generation)
                == [toDevice(3, ack: 1001, .ack, bytes("4567"))])
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 9)) == [])
        #expect(flow.retransmitTimer == nil)
        #expect(flow.serverReadAllowance == flow.config.maxToDeviceBytes)
    }

    @Test func theSynAckAndItsAckWrapToo() {
        var flow = F.fresh(ourISN: SequenceNumber(UInt32.max))
        _ = flow.receiveFromDevice(InboundSegment(sequence: SequenceNumber(UInt32.max), flags: .syn))
        #expect(flow.serverDidConnect() == [.segmentToDevice(OutboundSegment(
            sequence: SequenceNumber(UInt32.max), acknowledgment: 0, flags: [.syn, .ack], window: .max,
            maximumSegmentSize: 1460))])
        #expect(flow.receiveFromDevice(fromDevice(0, ack: 0)) == [])
        #expect(flow.state == .established)
    }
}
