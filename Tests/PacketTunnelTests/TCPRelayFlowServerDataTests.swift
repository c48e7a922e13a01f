import Foundation
import Testing
import Shared
@testable import PacketTunnel

/// Server → device: segmentation, the device's window, back-pressure and retransmission.
@Suite struct TCPRelayFlowServerDataTests {
    typealias F = RelayFixture

    @Test func serverDataIsSplitAtTheSmallerOfTheTwoSegmentSizes() {
        var flow = F.established(mss: 1000)
        #expect(flow.receiveFromServer(pattern(2500)) == [
            toDevice(5001, ack: 1001, .ack, pattern(1000)),
            toDevice(6001, ack: 1001, .ack, pattern(1000, from: 1000)),
            toDevice(7001, ack: 1001, [.ack, .psh], pattern(500, from: 2000)),
        ])
        #expect(flow.retransmitTimer?.interval == .seconds(1))
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 7501)) == [])
        #expect(flow.retransmitTimer == nil)
    }

    @Test func whatTheDevicesWindowHoldsBackGoesWhenAcksAndWindowUpdatesArrive() {
        var flow = F.established(window: 1500, mss: 1000)
        #expect(flow.receiveFromServer(pattern(3000)) == [
            toDevice(5001, ack: 1001, .ack, pattern(1000)),
            toDevice(6001, ack: 1001, .ack, pattern(500, from: 1000)),
        ])
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 6001, window: 1500))
                == [toDevice(6501, ack: 1001, .ack, pattern(1000, from: 1500))])
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 7501, window: 0)) == [])
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 7501, window: 400))
                == [toDevice(7501, ack: 1001, .ack, pattern(400, from: 2500))])
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 7901, window: 4000))
                == [toDevice(7901, ack: 1001, [.ack, .psh], pattern(100, from: 2900))])
    }

    @Test func theDevicesWindowIsScaledByTheShiftOfItsSyn() {
        var flow = F.established(window: 100, windowScale: 4)          // 100 << 4 = 1600 bytes
        // Scaling is mutual: our own window goes out shifted too (1 MiB >> 5).
        #expect(flow.receiveFromServer(pattern(2000)) == [
            toDevice(5001, ack: 1001, .ack, window: 32_768, pattern(1460)),
            toDevice(6461, ack: 1001, .ack, window: 32_768, pattern(140, from: 1460)),
        ])
    }

    @Test func serverDataThatArrivesBeforeTheHandshakeEndsWaitsForIt() {
        var flow = F.fresh()
        _ = flow.receiveFromDevice(InboundSegment(sequence: 1000, flags: .syn, maximumSegmentSize: 1460))
        _ = flow.serverDidConnect()
        #expect(flow.receiveFromServer(bytes("220 banner")) == [])
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 5001))
                == [toDevice(5001, ack: 1001, [.ack, .psh], bytes("220 banner"))])
    }

    @Test func aFullDeviceBufferPausesServerReadsUntilHalfOfItIsAcknowledged() {
        var flow = F.established(config: .init(maxToDeviceBytes: 3000), window: 1000, mss: 1000)
        #expect(flow.receiveFromServer(pattern(3000)) == [toDevice(5001, ack: 1001, .ack, pattern(1000)), .pauseServerReads])
        #expect(flow.serverReadAllowance == 0)
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 6001, window: 1000))
                == [toDevice(6001, ack: 1001, .ack, pattern(1000, from: 1000))])
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 7001, window: 1000))
                == [toDevice(7001, ack: 1001, [.ack, .psh], pattern(1000, from: 2000)), .resumeServerReads])
        #expect(flow.serverReadAllowance == 2000)
    }

    @Test func serverBytesBeyondTheAllowanceResetTheFlow() {
        var flow = F.established(config: .init(maxToDeviceBytes: 100))
        let reset = OutboundSegment(sequence: 5001, acknowledgment: 0, flags: .rst, window: 0)
        #expect(flow.receiveFromServer(pattern(101)) == [.segmentToDevice(reset), .teardown(.deviceBufferOverflow)])
    }

    @Test func aTimeoutResendsTheOldestSegmentOnlyAndBacksOff() throws {
        var flow = F.established(mss: 1000)
        _ = flow.receiveFromServer(pattern(2500))
        let first = try #require(flow.retransmitTimer)
        #expect(flow.retransmitTimeout(generation: first.generation &+ 1) == [])      // not the armed timer
        #expect(flow.retransmitTimeout(generation: first.generation) == [toDevice(5001, ack: 1001, .ack, pattern(1000))])
        let second = try #require(flow.retransmitTimer)
        #expect(second.interval == .seconds(2) && second.generation != first.generation)
        #expect(flow.retransmitTimeout(generation: first.generation) == [])           // stale
        // An ACK of new data restarts the timer at the initial timeout.
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 6001)) == [])
        #expect(flow.retransmitTimer?.interval == .seconds(1))
        #expect(flow.retransmitTimeout(generation: flow.retransmitTimer!.generation)
                == [toDevice(6001, ack: 1001, .ack, pattern(1000, from: 1000))])
    }

    @Test func theBackoffStopsAtItsCeiling() {
        var flow = F.established(config: .init(initialRetransmitTimeout: .seconds(1), maxRetransmitTimeout: .seconds(3),
                                               maxRetransmits: 5))
        _ = flow.receiveFromServer(bytes("x"))
        var intervals: [Duration] = []
        for _ in 0..<4 {
            intervals.append(flow.retransmitTimer!.interval)
            _ = flow.retransmitTimeout(generation: flow.retransmitTimer!.generation)
        }
        #expect(intervals == [.seconds(1), .seconds(2), .seconds(3), .seconds(3)])
    }

    @Test func aDeviceThatNeverAcknowledgesIsResetAfterTheLastRetransmit() {
        var flow = F.established(config: .init(maxRetransmits: 2))
        _ = flow.receiveFromServer(bytes("hello"))
        let resend = [toDevice(5001, ack: 1001, [.ack, .psh], bytes("hello"))]
        #expect(flow.retransmitTimeout(generation: flow.retransmitTimer!.generation) == resend)
        #expect(flow.retransmitTimeout(generation: flow.retransmitTimer!.generation) == resend)
        let reset = OutboundSegment(sequence: 5006, acknowledgment: 0, flags: .rst, window: 0)
        #expect(flow.retransmitTimeout(generation: flow.retransmitTimer!.generation)
                == [.segmentToDevice(reset), .teardown(.retransmitsExhausted)])
        #expect(flow.retransmitTimer == nil)
        #expect(flow.receiveFromServer(bytes("more")) == [])
    }

    @Test func aZeroWindowIsProbedOneByteAtATimeUntilItOpens() throws {
        var flow = F.established(window: 0)
        #expect(flow.receiveFromServer(bytes("ab")) == [])
        let persist = try #require(flow.retransmitTimer)
        #expect(flow.retransmitTimeout(generation: persist.generation) == [toDevice(5001, ack: 1001, .ack, bytes("a"))])
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 5002, window: 0)) == [])
        #expect(flow.retransmitTimer != nil)
        #expect(flow.receiveFromDevice(fromDevice(1001, ack: 5002, window: 100))
                == [toDevice(5002, ack: 1001, [.ack, .psh], bytes("b"))])
    }
}
