import Foundation
import Shared
@testable import PacketTunnel

/// A device at 10.7.0.2 talking to 198.18.0.1:443 through the relay, and ways to put a
/// `TCPRelayFlow` in any state with the exact segments that lead there (STYLE practice 14).
enum RelayFixture {
    static let device = IPEndpoint(address: IPAddress(parsing: "10.7.0.2")!, port: 51000)
    static let server = IPEndpoint(address: IPAddress(parsing: "198.18.0.1")!, port: 443)
    static let key = FlowKey(proto: .tcp, source: device, destination: server)
    static let deviceISN: SequenceNumber = 1000
    static let ourISN: SequenceNumber = 5000

    static func fresh(config: TCPRelayFlow.Config = .init(), ourISN: SequenceNumber = ourISN) -> TCPRelayFlow {
        TCPRelayFlow(key: key, device: device, server: server, config: config, initialSequence: ourISN)
    }

    /// ESTABLISHED after SYN → connect → SYN-ACK → ACK, with nothing in flight either way.
    static func established(config: TCPRelayFlow.Config = .init(), deviceISN: SequenceNumber = deviceISN,
                            ourISN: SequenceNumber = ourISN, window: UInt16 = .max,
                            mss: UInt16? = 1460, windowScale: UInt8? = nil) -> TCPRelayFlow {
        var flow = fresh(config: config, ourISN: ourISN)
        _ = flow.receiveFromDevice(InboundSegment(sequence: deviceISN, flags: .syn, window: window,
                                                  maximumSegmentSize: mss, windowScale: windowScale))
        _ = flow.serverDidConnect()
        _ = flow.receiveFromDevice(InboundSegment(sequence: deviceISN + 1, acknowledgment: ourISN + 1,
                                                  flags: .ack, window: window))
        precondition(flow.state == .established)
        return flow
    }
}

/// A segment as the device sends it.
func fromDevice(_ sequence: SequenceNumber, ack: SequenceNumber, _ flags: TCPFlags = .ack,
                window: UInt16 = .max, _ payload: Data = Data()) -> InboundSegment {
    InboundSegment(sequence: sequence, acknowledgment: ack, flags: flags, window: window, payload: payload)
}

/// The action of sending the device a segment.
func toDevice(_ sequence: SequenceNumber, ack: SequenceNumber, _ flags: TCPFlags = .ack,
              window: UInt16 = .max, _ payload: Data = Data()) -> TCPRelayAction {
    .segmentToDevice(OutboundSegment(sequence: sequence, acknowledgment: ack, flags: flags, window: window,
                                     payload: payload))
}

func bytes(_ text: String) -> Data { Data(text.utf8) }

/// `count` bytes counting up from `first`, so any misplaced byte shows.
func pattern(_ count: Int, from first: Int = 0) -> Data { Data((0..<count).map { UInt8(truncatingIfNeeded: first + $0) }) }
