/// What the history and the live feed keep of one packet (data model; ring and `packets` table).
package struct PacketMeta: Sendable, Hashable, Codable {
    /// Monotonic nanoseconds since the session's clock origin (`MonotonicAnchor`).
    package var timestamp: UInt64
    package var flowKey: FlowKey
    package var direction: Direction
    /// Bytes of the whole IP datagram.
    package var length: UInt32
    /// Empty when the packet is not TCP.
    package var tcpFlags: TCPFlags
    /// Where its bytes were captured; nil when they were not (capture off, or the writer failed).
    package var capture: CaptureLocation?
    /// The flow's end that is the machine's, when the recorder knew it (`FlowRecord.localEnd`):
    /// the live feed then splits the flow by it. Nil for the tunnel, whose address tells.
    package var localEnd: IPEndpoint?

    package init(timestamp: UInt64, flowKey: FlowKey, direction: Direction, length: UInt32,
                tcpFlags: TCPFlags, capture: CaptureLocation?, localEnd: IPEndpoint? = nil) {
        self.timestamp = timestamp
        self.flowKey = flowKey
        self.direction = direction
        self.length = length
        self.tcpFlags = tcpFlags
        self.capture = capture
        self.localEnd = localEnd
    }
}
