/// One flush of the pipeline: the flows touched since the last one and the packets seen, written
/// in one transaction (`FlowStore.write(_:)`).
package struct FlowStoreBatch: Sendable {
    /// Each flow's current lifetime aggregate (`FlowStore.upsertFlow` semantics).
    package var flows: [FlowRecord]
    /// Matched to their flow by key within the store's session: a flow in this batch, or one the
    /// session already stored.
    package var packets: [PacketMeta]
    /// The decrypted chunks' index rows, matched to their flow as packets are.
    package var plaintext: [PlaintextChunkRecord]
    /// The inspected requests' heads for the search, matched to their flow as packets are.
    package var requests: [HTTPRequestRecord]

    package init(flows: [FlowRecord] = [], packets: [PacketMeta] = [], plaintext: [PlaintextChunkRecord] = [],
                requests: [HTTPRequestRecord] = []) {
        self.flows = flows
        self.packets = packets
        self.plaintext = plaintext
        self.requests = requests
    }

    package var isEmpty: Bool { flows.isEmpty && packets.isEmpty && plaintext.isEmpty && requests.isEmpty }

    /// What a written batch became.
    package struct Outcome: Sendable, Hashable {
        /// The row of each flow, in the batch's order.
        package let flowIDs: [Int64]
        package let packetsWritten: Int
        /// Packets whose flow was neither in the batch nor stored in this session: not written,
        /// counted so the loss is visible (a pipeline bug, or a flow pruned while active).
        package let orphanedPackets: Int
        /// Index rows of decrypted chunks written, and those whose flow was not found (counted).
        package var plaintextWritten = 0
        package var orphanedPlaintext = 0
        /// Request heads written, and those whose flow was not found (counted).
        package var requestsWritten = 0
        package var orphanedRequests = 0
    }
}
