/// How many packets of one flow of an audit session sit in one capture file, or were never
/// captured (`fileSequence` nil): what an evidence capture counts before it reads a record.
package struct SessionPacketCount: Sendable, Hashable {
    package let flowID: Int64
    /// Nil for the packets whose bytes were never captured (stored at file 0, offset 0).
    package let fileSequence: UInt32?
    package let packetCount: Int

    package init(flowID: Int64, fileSequence: UInt32?, packetCount: Int) {
        self.flowID = flowID
        self.fileSequence = fileSequence
        self.packetCount = packetCount
    }
}
