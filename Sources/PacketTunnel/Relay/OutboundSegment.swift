import Foundation
import Shared

/// A segment `TCPRelayFlow` decided to send to the device, playing the server.
package typealias OutboundSegment = TCPRelaySegment

extension TCPRelaySegment {
    /// The whole IP datagram, checksums included; the shell passes the server as `source` and the
    /// device as `destination`.
    package func emit(source: IPEndpoint, destination: IPEndpoint) throws(PacketEmitError) -> Data {
        try PacketEmitter.tcp(source: source, destination: destination,
                              sequence: sequence.rawValue, acknowledgment: acknowledgment.rawValue,
                              flags: flags, windowSize: window,
                              options: TCPOptions(maximumSegmentSize: maximumSegmentSize, windowScale: windowScale),
                              payload: payload)
    }
}
