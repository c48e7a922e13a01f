import Foundation
import Testing
import Shared
@testable import PacketTunnel

/// Device → server: what reaches the server, exactly once, and what the device hears back.
@Suite struct TCPRelayFlowDeviceDataTests {
    typealias F = RelayFixture

    @Test func inOrderDataGoesToTheServerAndIsAcknowledgedCumulatively() {
        var flow = F.established()
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 5001, [.ack, .psh], bytes("hello")))
                == [.sendToServer(bytes("hello")), toDevice(5001, ack: 1006)])
        #expect(flow.receiveFromDevice(fromDevice(1006, ack: 5001, .ack, bytes(" world")))
                == [.sendToServer(bytes(" world")), toDevice(5001, ack: 1012)])
        #expect(flow.receiveFromDevice(fromDevice(1012, ack: 5001)) == [])
    }

    @Test func outOfOrderDataWaitsBehindADuplicateAckAndIsSplicedWhenTheGapFills() {
        var flow = F.established()
        #expect(flow.receiveFromDevice(fromDevice(1011, ack: 5001, .ack, bytes("KLMNO"))) == [toDevice(5001, ack: 1001)])
        #expect(flow.receiveFromDevice(fromDevice(1006, ack: 5001, .ack, bytes("FGHIJ"))) == [toDevice(5001, ack: 1001)])
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 5001, .ack, bytes("ABCDE")))
                == [.sendToServer(bytes("ABCDEFGHIJKLMNO")), toDevice(5001, ack: 1016)])
    }

    @Test func aRetransmitOfBytesAlreadyReceivedIsAcknowledgedButNotForwardedAgain() {
        var flow = F.established()
        _ = flow.receiveFromDevice(fromDevice(1001, ack: 5001, .ack, bytes("hello")))
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 5001, .ack, bytes("hello"))) == [toDevice(5001, ack: 1006)])
        _ = flow.receiveFromDevice(fromDevice(1011, ack: 5001, .ack, bytes("later")))
        #expect(flow.receiveFromDevice(fromDevice(1011, ack: 5001, .ack, bytes("later"))) == [toDevice(5001, ack: 1006)])
        #expect(flow.receiveFromDevice(fromDevice(1006, ack: 5001, .ack, bytes("12345")))
                == [.sendToServer(bytes("12345later")), toDevice(5001, ack: 1016)])
    }

    @Test func aPartialOverlapForwardsOnlyTheNewBytes() {
        var flow = F.established()
        _ = flow.receiveFromDevice(fromDevice(1001, ack: 5001, .ack, bytes("hello")))
        #expect(flow.receiveFromDevice(fromDevice(1004, ack: 5001, .ack, bytes("lo, world")))
                == [.sendToServer(bytes(", world")), toDevice(5001, ack: 1013)])
        // Overlapping pieces ahead of a gap are held once each.
        _ = flow.receiveFromDevice(fromDevice(1021, ack: 5001, .ack, bytes("89abcd")))
        _ = flow.receiveFromDevice(fromDevice(1018, ack: 5001, .ack, bytes("5678")))
        _ = flow.receiveFromDevice(fromDevice(1025, ack: 5001, .ack, bytes("cdefg")))
        #expect(flow.receiveFromDevice(fromDevice(1013, ack: 5001, .ack, bytes("012345")))
                == [.sendToServer(bytes("0123456789abcdefg")), toDevice(5001, ack: 1030)])
    }

    @Test func aFullServerSocketClosesTheWindowAndItsDrainReopensIt() {
        var flow = F.established(config: .init(maxToServerBytes: 10))
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 5001, .ack, pattern(10)))
                == [.sendToServer(pattern(10)), toDevice(5001, ack: 1011, window: 0)])
        // A zero-window probe is answered, and nothing of it passes.
        #expect(flow.receiveFromDevice(fromDevice(1011, ack: 5001, .ack, pattern(1, from: 10)))
                == [toDevice(5001, ack: 1011, window: 0)])
        #expect(flow.serverDidDrain(byteCount: 4) == [])              // less than half the window: no update yet
        #expect(flow.serverDidDrain(byteCount: 6) == [toDevice(5001, ack: 1011, window: 10)])
        #expect(flow.receiveFromDevice(fromDevice(1011, ack: 5001, .ack, pattern(5, from: 10)))
                == [.sendToServer(pattern(5, from: 10)), toDevice(5001, ack: 1016, window: 5)])
    }

    @Test("a drain that leaves the device more than half the window it was told is not announced on its own; one that doubles it is")
    func aDrainIsAnnouncedOnlyOnceTheWindowDoubles() {
        var flow = F.established(config: .init(maxToServerBytes: 10_000))
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 5001, .ack, pattern(2_000)))
                == [.sendToServer(pattern(2_000)), toDevice(5001, ack: 3001, window: 8_000)])
        // The socket took it all: 10 000 free against the 8 000 told — more than a segment, less
        // than double — which the next ACK says.
        #expect(flow.serverDidDrain(byteCount: 2_000) == [])
        #expect(flow.receiveFromDevice(fromDevice(3001, ack: 5001, .ack, pattern(7_000, from: 2_000)))
                == [.sendToServer(pattern(7_000, from: 2_000)), toDevice(5001, ack: 10_001, window: 3_000)])
        // 3 000 told, 10 000 free: announced.
        #expect(flow.serverDidDrain(byteCount: 7_000) == [toDevice(5001, ack: 10_001, window: 10_000)])
    }

    @Test func aScaledWindowIsAdvertisedShiftedAndRoundedDown() {
        // 1 MiB with shift 5: after 100 bytes, (1 048 576 − 100) >> 5 = 32 764 (rounded down).
        var flow = F.established(config: .init(maxToServerBytes: 1 << 20), windowScale: 7)
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 5001, .ack, pattern(100)))
                == [.sendToServer(pattern(100)), toDevice(5001, ack: 1101, window: 32_764)])
        // The device may fill the whole scaled window: 200 000 bytes, more than 16 bits could say.
        #expect(flow.receiveFromDevice(fromDevice(1101, ack: 5001, .ack, pattern(200_000, from: 100)))
                == [.sendToServer(pattern(200_000, from: 100)), toDevice(5001, ack: 201_101, window: 26_514)])
    }

    @Test func withoutTheDevicesScalingOurWindowStaysWithinSixteenBits() {
        var flow = F.established(config: .init(maxToServerBytes: 1 << 20))
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 5001, .ack, pattern(100)))
                == [.sendToServer(pattern(100)), toDevice(5001, ack: 1101, window: .max)])
    }

    @Test func bytesBeyondTheWindowAreDroppedForTheDeviceToResend() {
        var flow = F.established(config: .init(maxToServerBytes: 8))
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 5001, [.ack, .fin], pattern(12)))
                == [.sendToServer(pattern(8)), toDevice(5001, ack: 1009, window: 0)])
        #expect(flow.state == .established)                           // the FIN was beyond the window too
    }

    @Test func outOfOrderSegmentsPastTheCountCapAreDroppedAndTakenWhenResent() {
        var flow = F.established(config: .init(maxOutOfOrderSegments: 2))
        _ = flow.receiveFromDevice(fromDevice(1003, ack: 5001, .ack, bytes("c")))
        _ = flow.receiveFromDevice(fromDevice(1005, ack: 5001, .ack, bytes("e")))
        #expect(flow.receiveFromDevice(fromDevice(1007, ack: 5001, .ack, bytes("g"))) == [toDevice(5001, ack: 1001)])
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 5001, .ack, bytes("ab")))
                == [.sendToServer(bytes("abc")), toDevice(5001, ack: 1004)])
        #expect(flow.receiveFromDevice(fromDevice(1004, ack: 5001, .ack, bytes("d")))
                == [.sendToServer(bytes("de")), toDevice(5001, ack: 1006)])
        #expect(flow.receiveFromDevice(fromDevice(1006, ack: 5001, .ack, bytes("fg")))
                == [.sendToServer(bytes("fg")), toDevice(5001, ack: 1008)])
    }

    @Test func outOfOrderBytesPastTheByteCapAreDropped() {
        var flow = F.established(config: .init(maxOutOfOrderBytes: 4))
        _ = flow.receiveFromDevice(fromDevice(1002, ack: 5001, .ack, bytes("bcd")))
        _ = flow.receiveFromDevice(fromDevice(1005, ack: 5001, .ack, bytes("ef")))   // 5 > 4: dropped
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 5001, .ack, bytes("a")))
                == [.sendToServer(bytes("abcd")), toDevice(5001, ack: 1005)])
    }

    @Test func aSynOnAnOpenFlowGetsAChallengeAckAndChangesNothing() {
        var flow = F.established()
        #expect(flow.receiveFromDevice(InboundSegment(sequence: 4242, flags: .syn)) == [toDevice(5001, ack: 1001)])
        #expect(flow.state == .established)
    }

    @Test func anAckOfBytesNeverSentIsAnsweredAndItsDataIgnored() {
        var flow = F.established()
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 6000, .ack, bytes("x"))) == [toDevice(5001, ack: 1001)])
    }

    @Test func aSegmentWithoutAckIsDropped() {
        var flow = F.established()
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 0, [], bytes("x"))) == [])
    }
}
