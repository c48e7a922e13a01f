/// How many packets of one flow of an audit session sit in one capture file, or were never
/// captured (`fileSequence` nil): what an evidence capture counts before it reads a record.
public struct SessionPacketCount: Sendable, Hashable {
    public let flowID: Int64
    /// Nil for the packets whose bytes were never captured (stored at file 0, offset 0).
    public let fileSequence: UInt32?
    public let packetCount: Int

    public init(flowID: Int64, fileSequence: UInt32?, packetCount: Int) {
        self.flowID = flowID
        self.fileSequence = fileSequence
        self.packetCount = packetCount
    }
}
