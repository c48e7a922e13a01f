import Foundation
import Testing
import Shared
@testable import PacketTunnel

/// FINs in both orders, resets and failures: how a relayed connection ends.
@Suite struct TCPRelayFlowCloseTests {
    typealias F = RelayFixture

    @Test func theDeviceClosingFirstHalfClosesTheServerAndTheServerMayStillSend() {
        var flow = F.established()
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 5001, [.ack, .fin])) == [.closeServerSend, toDevice(5001, ack: 1002)])
        #expect(flow.state == .closeWait)
        #expect(flow.receiveFromServer(bytes("bye")) == [toDevice(5001, ack: 1002, [.ack, .psh], bytes("bye"))])
        #expect(flow.serverDidCloseSend() == [toDevice(5004, ack: 1002, [.fin, .ack])])
        #expect(flow.state == .lastAck)
        #expect(flow.receiveFromDevice(fromDevice(1002, ack: 5005)) == [.teardown(.completed)])
        #expect(flow.state == .closed(.completed))
    }

    @Test func theServerClosingFirstSendsOurFinAndTheDeviceMayStillSend() {
        var flow = F.established()
        #expect(flow.serverDidCloseSend() == [toDevice(5001, ack: 1001, [.fin, .ack])])
        #expect(flow.state == .finWait1)
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 5002)) == [])
        #expect(flow.state == .finWait2)
        #expect(flow.retransmitTimer == nil)
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 5002, .ack, bytes("late")))
                == [.sendToServer(bytes("late")), toDevice(5002, ack: 1005)])
        #expect(flow.receiveFromDevice(fromDevice(1005, ack: 5002, [.ack, .fin]))
                == [.closeServerSend, toDevice(5002, ack: 1006), .teardown(.completed)])
    }

    @Test func finsThatCrossEndInClosingAndTheLastAckEndsTheFlow() {
        var flow = F.established()
        _ = flow.serverDidCloseSend()
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 5001, [.ack, .fin])) == [.closeServerSend, toDevice(5002, ack: 1002)])
        #expect(flow.state == .closing)
        #expect(flow.receiveFromDevice(fromDevice(1002, ack: 5002)) == [.teardown(.completed)])
    }

    @Test func aFinThatAlsoAcknowledgesOursEndsTheFlowAtOnce() {
        var flow = F.established()
        _ = flow.serverDidCloseSend()
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 5002, [.ack, .fin]))
                == [.closeServerSend, toDevice(5002, ack: 1002), .teardown(.completed)])
    }

    @Test func dataAndFinInOneSegmentAreForwardedThenHalfClosed() {
        var flow = F.established()
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 5001, [.ack, .psh, .fin], bytes("last words")))
                == [.sendToServer(bytes("last words")), .closeServerSend, toDevice(5001, ack: 1012)])
        // A resent FIN is acknowledged again and changes nothing.
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 5001, [.ack, .fin], bytes("last words")))
                == [toDevice(5001, ack: 1012)])
    }

    @Test func anOutOfOrderFinIsTakenWhenResentInOrder() {
        var flow = F.established()
        #expect(flow.receiveFromDevice(fromDevice(1004, ack: 5001, [.ack, .fin], bytes("def"))) == [toDevice(5001, ack: 1001)])
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 5001, .ack, bytes("abc")))
                == [.sendToServer(bytes("abcdef")), toDevice(5001, ack: 1007)])
        #expect(flow.receiveFromDevice(fromDevice(1004, ack: 5001, [.ack, .fin], bytes("def")))
                == [.closeServerSend, toDevice(5001, ack: 1008)])
    }

    @Test func ourFinWaitsForQueuedDataAndRidesOnTheLastSegment() {
        var flow = F.established(window: 1000, mss: 1000)
        _ = flow.receiveFromServer(pattern(1500))
        #expect(flow.serverDidCloseSend() == [])
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 6001, window: 1000))
                == [toDevice(6001, ack: 1001, [.ack, .psh, .fin], pattern(500, from: 1000))])
        #expect(flow.state == .finWait1)
        // Lost: the timeout resends data and FIN together.
        #expect(flow.retransmitTimeout(generation: flow.retransmitTimer!.generation)
                == [toDevice(6001, ack: 1001, [.ack, .psh, .fin], pattern(500, from: 1000))])
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 6502)) == [])
        #expect(flow.state == .finWait2)
    }

    @Test func aLostFinAloneIsResentAlone() {
        var flow = F.established()
        _ = flow.serverDidCloseSend()
        #expect(flow.retransmitTimeout(generation: flow.retransmitTimer!.generation) == [toDevice(5001, ack: 1001, [.fin, .ack])])
    }

    @Test func aDeviceResetEndsTheFlowSilentlyAndNothingFollows() {
        var flow = F.established()
        _ = flow.receiveFromServer(bytes("pending"))
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 0, .rst)) == [.teardown(.deviceReset)])
        #expect(flow.retransmitTimer == nil)
        #expect(flow.receiveFromServer(bytes("more")) == [])
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 5001, .ack, bytes("x"))) == [])
        #expect(flow.retransmitTimeout(generation: 1) == [])
    }

    @Test func aResetOutsideTheWindowIsIgnored() {
        var flow = F.established()
        #expect(flow.receiveFromDevice(fromDevice(999, ack: 0, .rst)) == [])
        #expect(flow.receiveFromDevice(fromDevice(1001 + 70_000, ack: 0, .rst)) == [])
        #expect(flow.state == .established)
    }

    @Test func aServerFailureMidConnectionResetsTheDevice() {
        var flow = F.established()
        _ = flow.receiveFromServer(bytes("abc"))
        let reset = OutboundSegment(sequence: 5004, acknowledgment: 0, flags: .rst, window: 0)
        #expect(flow.serverDidFail() == [.segmentToDevice(reset), .teardown(.serverFailed)])
        #expect(flow.state == .closed(.serverFailed))
        #expect(flow.serverDidFail() == [])
    }
}
