import Foundation
import Shared

/// A segment the device sent. The shell routed its datagram to the flow by `FlowKey`.
package typealias InboundSegment = TCPRelaySegment

extension TCPRelaySegment {
    /// The segment of a parsed datagram. Options are read only on a SYN, the one segment whose
    /// MSS and window scale count (RFC 9293 §3.7.1, RFC 7323 §2.2); a malformed option list there
    /// throws and the caller drops the segment.
    package init(_ header: TCPHeader, in datagram: Data) throws(TCPOptionsParseError) {
        var options = TCPOptions()
        if header.flags.contains(.syn) {
            let optionsEnd = header.payloadRange.lowerBound
            let optionsStart = optionsEnd - header.dataOffsetBytes + 20
            options = try TCPOptions.parse(datagram[optionsStart..<optionsEnd])
        }
        self.init(sequence: SequenceNumber(header.sequence), acknowledgment: SequenceNumber(header.acknowledgment),
                  flags: header.flags, window: header.windowSize, payload: datagram[header.payloadRange],
                  maximumSegmentSize: options.maximumSegmentSize, windowScale: options.windowScale)
    }

    /// SEG.LEN: the payload, plus one each for SYN and FIN (RFC 9293 §3.4).
    var sequenceLength: Int {
        payload.count + (flags.contains(.syn) ? 1 : 0) + (flags.contains(.fin) ? 1 : 0)
    }
}
