import Foundation
import Testing
import Shared
@testable import PacketTunnel

@Suite struct TCPRelayFlowHandshakeTests {
    typealias F = RelayFixture

    @Test func aSynAsksForTheServerAndTheDeviceHearsNothingUntilItAnswers() {
        var flow = F.fresh()
        #expect(flow.receiveFromDevice(InboundSegment(sequence: 1000, flags: .syn, window: 64240,
                                                      maximumSegmentSize: 1460)) == [.connectToServer])
        #expect(flow.state == .connecting)
        #expect(flow.retransmitTimer == nil)
        #expect(flow.receiveFromDevice(InboundSegment(sequence: 1000, flags: .syn, window: 64240)) == [])
        #expect(flow.state == .connecting)
    }

    @Test func theSynAckCarriesOurISNTheDevicesISNPlusOneAndOurMSS() {
        var flow = F.fresh()
        _ = flow.receiveFromDevice(InboundSegment(sequence: 1000, flags: .syn, maximumSegmentSize: 1400))
        let synAck = OutboundSegment(sequence: 5000, acknowledgment: 1001, flags: [.syn, .ack], window: .max,
                                     maximumSegmentSize: 1460)
        #expect(flow.serverDidConnect() == [.segmentToDevice(synAck)])
        #expect(flow.state == .synReceived)
        #expect(flow.retransmitTimer?.interval == .seconds(1))
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 5001)) == [])
        #expect(flow.state == .established)
        #expect(flow.retransmitTimer == nil)
    }

    @Test func aDeviceThatOffersWindowScalingIsAnsweredWithTheShiftOurBufferNeeds() {
        // 1 MiB does not fit 16 bits until shifted by 5 (1 MiB >> 5 = 32 768); the SYN-ACK's own
        // window is never scaled.
        var flow = F.fresh(config: .init(maxToServerBytes: 1 << 20))
        _ = flow.receiveFromDevice(InboundSegment(sequence: 1000, flags: .syn, maximumSegmentSize: 1460, windowScale: 7))
        let synAck = OutboundSegment(sequence: 5000, acknowledgment: 1001, flags: [.syn, .ack], window: .max,
                                     maximumSegmentSize: 1460, windowScale: 5)
        #expect(flow.serverDidConnect() == [.segmentToDevice(synAck)])
    }

    @Test func aBufferThatFitsSixteenBitsIsAnnouncedWithShiftZero() {
        var flow = F.fresh(config: .init(maxToServerBytes: 65_535))
        _ = flow.receiveFromDevice(InboundSegment(sequence: 1000, flags: .syn, maximumSegmentSize: 1460, windowScale: 7))
        let synAck = OutboundSegment(sequence: 5000, acknowledgment: 1001, flags: [.syn, .ack], window: .max,
                                     maximumSegmentSize: 1460, windowScale: 0)
        #expect(flow.serverDidConnect() == [.segmentToDevice(synAck)])
    }

    @Test func aRepeatedSynAfterTheSynAckGetsTheSameSynAckAgain() {
        var flow = F.fresh()
        _ = flow.receiveFromDevice(InboundSegment(sequence: 1000, flags: .syn))
        let first = flow.serverDidConnect()
        #expect(flow.receiveFromDevice(InboundSegment(sequence: 1000, flags: .syn)) == first)
        #expect(flow.state == .synReceived)
    }

    @Test func theSynAckIsResentWhenItsTimerFires() throws {
        var flow = F.fresh()
        _ = flow.receiveFromDevice(InboundSegment(sequence: 1000, flags: .syn))
        let first = flow.serverDidConnect()
        let timer = try #require(flow.retransmitTimer)
        #expect(flow.retransmitTimeout(generation: timer.generation) == first)
        #expect(flow.retransmitTimer?.interval == .seconds(2))
    }

    @Test func anAckOfSomethingElseThanOurSynIsAnsweredWithRstAndTheFlowWaitsOn() {
        var flow = F.fresh()
        _ = flow.receiveFromDevice(InboundSegment(sequence: 1000, flags: .syn))
        _ = flow.serverDidConnect()
        let reset = OutboundSegment(sequence: 7777, acknowledgment: 0, flags: .rst, window: 0)
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 7777)) == [.segmentToDevice(reset)])
        #expect(flow.state == .synReceived)
    }

    @Test func aFirstSegmentThatIsNotASynIsResetAndForgotten() {
        var acked = F.fresh()
        let resetForAck = OutboundSegment(sequence: 9000, acknowledgment: 0, flags: .rst, window: 0)
        #expect(acked.receiveFromDevice(fromDevice(1001, ack: 9000, .ack, bytes("hi")))
                == [.segmentToDevice(resetForAck), .teardown(.notASyn)])

        var bare = F.fresh()
        let resetForBare = OutboundSegment(sequence: 0, acknowledgment: 1003, flags: [.rst, .ack], window: 0)
        #expect(bare.receiveFromDevice(fromDevice(1000, ack: 0, .fin, bytes("hi")))
                == [.segmentToDevice(resetForBare), .teardown(.notASyn)])

        var reset = F.fresh()
        #expect(reset.receiveFromDevice(fromDevice(1000, ack: 0, .rst)) == [.teardown(.notASyn)])
    }

    @Test func aServerThatRefusesIsAConnectionRefusedToTheDevice() {
        var flow = F.fresh()
        _ = flow.receiveFromDevice(InboundSegment(sequence: 1000, flags: .syn))
        let refusal = OutboundSegment(sequence: 0, acknowledgment: 1001, flags: [.rst, .ack], window: 0)
        #expect(flow.serverDidFail() == [.segmentToDevice(refusal), .teardown(.serverRefused)])
        #expect(flow.state == .closed(.serverRefused))
        #expect(flow.serverDidConnect() == [])
    }

    @Test func aDeviceRstWhileTheServerConnectsEndsTheFlowSilently() {
        var flow = F.fresh()
        _ = flow.receiveFromDevice(InboundSegment(sequence: 1000, flags: .syn))
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 0, .rst)) == [.teardown(.deviceReset)])
        #expect(flow.serverDidConnect() == [])
    }

    @Test func withoutAnMSSOptionTheDeviceGetsRFC9293sDefaultSegments() {
        var v4 = F.established(mss: nil)
        let actions = v4.receiveFromServer(pattern(600))
        #expect(actions == [toDevice(5001, ack: 1001, .ack, pattern(536)),
                            toDevice(5537, ack: 1001, [.ack, .psh], pattern(64, from: 536))])
        #expect(TCPRelayFlow.Config.defaultDeviceSegmentSize(.v6) == 1220)
        #expect(TCPRelayFlow.Config.segmentSize(mtu: 1500, version: .v4) == 1460)
        #expect(TCPRelayFlow.Config.segmentSize(mtu: 1500, version: .v6) == 1440)
    }
}
