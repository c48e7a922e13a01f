import Foundation
import Shared

extension TCPRelaySegment {
    /// The RST that answers `segment` where no connection takes it (RFC 9293 §3.10.7.1):
    /// <SEQ=SEG.ACK><CTL=RST> for a segment with an ACK, else
    /// <SEQ=0><ACK=SEG.SEQ+SEG.LEN><CTL=RST,ACK> — to a SYN, "connection refused". nil for an RST,
    /// which is never answered.
    package static func reset(answering segment: InboundSegment) -> OutboundSegment? {
        guard !segment.flags.contains(.rst) else { return nil }
        return segment.flags.contains(.ack)
            ? OutboundSegment(sequence: segment.acknowledgment, acknowledgment: 0, flags: .rst, window: 0)
            : OutboundSegment(sequence: 0, acknowledgment: segment.sequence + segment.sequenceLength,
                              flags: [.rst, .ack], window: 0)
    }
}
