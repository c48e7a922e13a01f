/// One inspected request's head as the pipeline hands it to the store at flush, for the search
/// (`HTTPRequestHeads`): its flow by key, as `PlaintextChunkRecord`'s, its monotonic instant, and
/// its text, lowercased. Decrypted content: it lives and goes with the decrypted content's index.
package struct HTTPRequestRecord: Sendable, Hashable {
    package let flowKey: FlowKey
    /// Monotonic nanoseconds on the session anchor's clock.
    package let timestamp: UInt64
    package let text: String

    package init(flowKey: FlowKey, timestamp: UInt64, text: String) {
        self.flowKey = flowKey
        self.timestamp = timestamp
        self.text = text
    }
}
