import Foundation

/// One captured packet of an audit session, as its capture file holds it: where its record is,
/// whose it is, which way it went, and what the history stored of it to check the record against.
package struct SessionCapturedPacket: Sendable, Hashable {
    package let flowID: Int64
    /// The record's offset in its capture file (never 0: no record sits there).
    package let recordOffset: UInt64
    package let direction: Direction
    package let date: Date
    /// Bytes of the whole IP datagram, as stored: the record's `orig_len` must say the same.
    package let length: UInt32

    package init(flowID: Int64, recordOffset: UInt64, direction: Direction, date: Date, length: UInt32) {
        self.flowID = flowID
        self.recordOffset = recordOffset
        self.direction = direction
        self.date = date
        self.length = length
    }
}
