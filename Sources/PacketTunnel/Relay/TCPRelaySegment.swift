import Foundation
import Shared

/// A TCP segment between the device and the relay, reduced to what `TCPRelayFlow` reads and
/// writes. One type serves both directions (`InboundSegment` from the wire, `OutboundSegment` to
/// it): the facts are the same, and addresses and ports are the flow's, not the segment's.
package struct TCPRelaySegment: Sendable, Equatable {
    package var sequence: SequenceNumber
    /// Meaningful when `flags` holds ACK; 0 on a bare RST.
    package var acknowledgment: SequenceNumber
    package var flags: TCPFlags
    /// The raw 16-bit field; the window scale agreed on the SYN applies to the device's.
    package var window: UInt16
    package var payload: Data
    /// On SYNs only; nil from a device SYN without it (the flow then assumes RFC 9293's default).
    package var maximumSegmentSize: UInt16?
    /// On SYNs only; nil when the side does not scale (RFC 7323 §2.2). Our SYN-ACK carries it
    /// only when the device offered it (§1.3).
    package var windowScale: UInt8?
    /// Toward the device, on a segment longer than the flow's MSS there: the payload of each
    /// segment the device is to cut it into (segmentation offload). Nil for one sent whole.
    var deviceSegmentSize: Int?

    package init(sequence: SequenceNumber, acknowledgment: SequenceNumber = 0, flags: TCPFlags,
                 window: UInt16 = .max, payload: Data = Data(),
                 maximumSegmentSize: UInt16? = nil, windowScale: UInt8? = nil) {
        self.sequence = sequence
        self.acknowledgment = acknowledgment
        self.flags = flags
        self.window = window
        self.payload = payload
        self.maximumSegmentSize = maximumSegmentSize
        self.windowScale = windowScale
    }
}
