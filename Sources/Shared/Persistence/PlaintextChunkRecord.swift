/// One decrypted chunk's index row as the pipeline hands it to the store at flush: its flow by
/// key (the flow's row id exists only once the batch is written), its monotonic instant (the
/// store dates it with the session's anchor, the same anchor that dated the file's record), and
/// where the writer put it.
public struct PlaintextChunkRecord: Sendable, Hashable {
    public let flowKey: FlowKey
    /// Monotonic nanoseconds on the session anchor's clock.
    public let timestamp: UInt64
    public let direction: Direction
    public let stream: UInt64
    public let location: PlaintextLocation
    public let storedLength: UInt32
    public let originalLength: UInt32

    public init(flowKey: FlowKey, timestamp: UInt64, direction: Direction, stream: UInt64, location: PlaintextLocation,
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
