import Shared

/// A flow as the table held it right after one packet: an immutable snapshot, so the caller can
/// keep it while the table moves on. The packet that closed a flow is in its snapshot.
///
/// The per-direction packet counts live here, not in `FlowRecord`: the record is what the store
/// persists (one `packetCount`), and these serve the live view only.
package struct LiveFlow: Sendable, Hashable {
    package let key: FlowKey
    package let record: FlowRecord
    /// Monotonic nanoseconds of the flow's latest packet (`record.lastSeen`).
    package let lastActivity: UInt64
    package let packetsOut: UInt64
    package let packetsIn: UInt64
}
