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
                              flags: flags, windowSize: window, options: options, payload: payload)
    }

    /// The size `emit(into:…)` writes; throws where `emit` would.
    package func byteCount(source: IPEndpoint, destination: IPEndpoint) throws(PacketEmitError) -> Int {
        try PacketEmitter.tcpByteCount(source: source, destination: destination, options: options,
                                       payloadCount: payload.count)
    }

    /// The datagram written into a buffer of at least `byteCount(…)` bytes; `checksum: .partial`
    /// for a device that completes it.
    package func emit(into buffer: UnsafeMutableRawBufferPointer, source: IPEndpoint, destination: IPEndpoint,
                      checksum: PacketEmitter.TransportChecksum = .complete) {
        PacketEmitter.tcp(into: buffer, source: source, destination: destination,
                          sequence: sequence.rawValue, acknowledgment: acknowledgment.rawValue,
                          flags: flags, windowSize: window, options: options, payload: payload, checksum: checksum)
    }

    /// What a device with segmentation offload is to finish for this segment sent from `source`.
    package func offload(from source: IPEndpoint) -> DeviceOffload {
        DeviceOffload(version: source.address.version, tcpHeaderLength: 20 + options.encoded.count, segmentSize: deviceSegmentSize)
    }

    private var options: TCPOptions { TCPOptions(maximumSegmentSize: maximumSegmentSize, windowScale: windowScale) }
}
