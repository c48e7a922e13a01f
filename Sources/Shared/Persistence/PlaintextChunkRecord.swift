/// One decrypted chunk's index row as the pipeline hands it to the store at flush: its flow by
/// key (the flow's row id exists only once the batch is written), its monotonic instant (the
/// store dates it with the session's anchor, the same anchor that dated the file's record), and
/// where the writer put it.
package struct PlaintextChunkRecord: Sendable, Hashable {
    package let flowKey: FlowKey
    /// Monotonic nanoseconds on the session anchor's clock.
    package let timestamp: UInt64
    package let direction: Direction
    package let stream: UInt64
    package let location: PlaintextLocation
    package let storedLength: UInt32
    package let originalLength: UInt32

    package init(flowKey: FlowKey, timestamp: UInt64, direction: Direction, stream: UInt64, location: PlaintextLocation,
                storedLength: UInt32, originalLength: UInt32) {
        self.flowKey = flowKey
        self.timestamp = timestamp
        self.direction = direction
        self.stream = stream
        self.location = location
        self.storedLength = storedLength
        self.originalLength = originalLength
    }
}
