import Foundation

/// One packet as the history holds it, dated.
package struct StoredPacket: Sendable, Hashable, Identifiable {
    package let id: Int64
    package let date: Date
    package let flowKey: FlowKey
    package let direction: Direction
    /// Bytes of the whole IP datagram.
    package let length: UInt32
    package let tcpFlags: TCPFlags
    /// Where its bytes are; nil when they were not captured (on disk: `pcap_offset = 0`, since no
    /// record sits at offset 0, and then `pcap_file` means nothing).
    package let capture: CaptureLocation?

    /// The checked value of `row`; `corruptRow` when a column holds what no packet can have.
    init(row: PacketRow) throws(StoreError) {
        let label = "packet \(row.id)"
        guard let direction = UInt8(exactly: row.direction).flatMap(Direction.init(rawValue:)) else {
            throw .corruptRow("\(label): direction \(row.direction)")
        }
        guard let length = UInt32(exactly: row.length) else { throw .corruptRow("\(label): length \(row.length)") }
        guard let flags = UInt8(exactly: row.tcpFlags) else { throw .corruptRow("\(label): tcp_flags \(row.tcpFlags)") }
        id = row.id
        date = EpochNanoseconds.date(row.timestamp)
        flowKey = try row.key.key(row: label)
        self.direction = direction
        self.length = length
        tcpFlags = TCPFlags(rawValue: flags)
        if row.captureOffset == 0 {
            capture = nil
        } else {
            guard let sequence = UInt32(exactly: row.captureFile), let offset = UInt64(exactly: row.captureOffset) else {
                throw .corruptRow("\(label): capture location \(row.captureFile)/\(row.captureOffset)")
            }
            capture = CaptureLocation(fileSequence: sequence, recordOffset: offset)
        }
    }
}
