import Foundation

/// One group of `FlowStore.flowGroups(by:…)`: the flows that share a host or a program, with
/// their totals over every flow of the group the narrowing keeps.
package struct FlowGroupTotals: Sendable, Hashable {
    /// The group's value of `FlowOrder.expression(key)`: a name (text), an address (blob), or for
    /// programs `X''` — no program named.
    package let value: FlowSortValue
    package var connections: Int
    package var bytesIn: UInt64
    package var bytesOut: UInt64
    package var packets: UInt64
    package var firstSeen: Date
    package var lastSeen: Date

    package init(value: FlowSortValue, connections: Int, bytesIn: UInt64, bytesOut: UInt64, packets: UInt64,
                firstSeen: Date, lastSeen: Date) {
        self.value = value
        self.connections = connections
        self.bytesIn = bytesIn
        self.bytesOut = bytesOut
        self.packets = packets
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
    }

    /// The first flow of a group.
    package init(value: FlowSortValue, first flow: StoredFlow) {
        self.init(value: value, connections: 1, bytesIn: flow.bytesIn, bytesOut: flow.bytesOut, packets: flow.packetCount,
                  firstSeen: flow.firstSeen, lastSeen: flow.lastSeen)
    }

    /// Another flow of the same group.
    package mutating func add(_ flow: StoredFlow) {
        connections += 1
        bytesIn &+= flow.bytesIn
        bytesOut &+= flow.bytesOut
        packets &+= flow.packetCount
        firstSeen = min(firstSeen, flow.firstSeen)
        lastSeen = max(lastSeen, flow.lastSeen)
    }

    /// Bytes both ways: what groups are ranked by, the most first.
    package var totalBytes: UInt64 { bytesIn &+ bytesOut }

    /// The most bytes first; ties by value, so the ranking is the same every time.
    package static func ranked(_ lhs: FlowGroupTotals, _ rhs: FlowGroupTotals) -> Bool {
        if lhs.totalBytes != rhs.totalBytes { return lhs.totalBytes > rhs.totalBytes }
        return lhs.value < rhs.value
    }
}
