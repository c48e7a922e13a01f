import Foundation
import Shared

/// One record of the live feed as a row can show it: the three things the ring does not carry —
/// when, which end is this machine, and a stable identity — added by pure decisions.
package struct LivePacket: Sendable, Hashable, Identifiable {
    /// The reader's sequence: the monotonic stamp is no identity, two packets can share it.
    package let id: UInt64
    package let date: Date
    package let flowKey: FlowKey
    package let direction: Direction
    package let length: UInt32
    package let tcpFlags: TCPFlags
    /// The capture file and record offset, or nil when the packet was not captured.
    package let capture: CaptureLocation?
    /// Nil when neither end (or both) is the tunnel's, and the recorder said none is the machine's: never guessed.
    package let endpoints: FlowEndpoints?

    /// Throws when the slot does not describe a packet (a foreign writer or memory damage): the
    /// reader counts it and goes on.
    package init(_ packed: PackedPacketMeta, sequence: UInt64, anchor: MonotonicAnchor,
                localAddresses: Set<IPAddress>) throws(PackedPacketMetaError) {
        let meta = try PacketMeta(packed: packed)
        id = sequence
        date = anchor.date(forUptime: meta.timestamp)
        flowKey = meta.flowKey
        direction = meta.direction
        length = meta.length
        tcpFlags = meta.tcpFlags
        capture = meta.capture
        endpoints = LiveFeedAddressing.endpoints(of: meta.flowKey, localEnd: meta.localEnd, localAddresses: localAddresses)
    }
}
