import Foundation
import Shared

/// What the live feed knows at one instant: all a dashboard draws.
package struct LiveFeedSnapshot: Sendable, Equatable {
    /// Arrival order; reversing is the view's business.
    package var recent: [LivePacket]
    package var throughput: [ThroughputSample]
    /// Records the tunnel dropped because the ring was full (back-pressure), this session.
    package var droppedRecords: UInt64
    package var bytesIn: UInt64
    package var bytesOut: UInt64
    package var packetCount: UInt64
    package var lateRecords: UInt64
    /// Whether a ring is open.
    package var isAttached: Bool
    package var lastAttachError: IPCError?
    /// The open ring's state: live, closed by its producer (an earlier session), or nil.
    package var ringState: RingFileState?
    /// The open ring's session number.
    package var generation: UInt64?
    /// The busiest remote hosts of the window.
    package var topTalkers: [LiveTalker]
    package var connectionsSeen: Int
    var connectionsReachedCap: Bool
    /// Slots that described no packet (a foreign writer or damage), counted and skipped.
    package var unreadableRecords: UInt64
    /// The instant the throughput samples end at.
    package var takenAt: Date
    /// What the history knows so far of the connections shown: their rows and names.
    package var names: LiveDashboardNames

    package init(recent: [LivePacket] = [], throughput: [ThroughputSample] = [], droppedRecords: UInt64 = 0,
                bytesIn: UInt64 = 0, bytesOut: UInt64 = 0, packetCount: UInt64 = 0, lateRecords: UInt64 = 0,
                isAttached: Bool = false, lastAttachError: IPCError? = nil, ringState: RingFileState? = nil,
                generation: UInt64? = nil, topTalkers: [LiveTalker] = [], connectionsSeen: Int = 0,
                connectionsReachedCap: Bool = false, unreadableRecords: UInt64 = 0, takenAt: Date,
                names: LiveDashboardNames = LiveDashboardNames()) {
        self.recent = recent
        self.throughput = throughput
        self.droppedRecords = droppedRecords
        self.bytesIn = bytesIn
        self.bytesOut = bytesOut
        self.packetCount = packetCount
        self.lateRecords = lateRecords
        self.isAttached = isAttached
        self.lastAttachError = lastAttachError
        self.ringState = ringState
        self.generation = generation
        self.topTalkers = topTalkers
        self.connectionsSeen = connectionsSeen
        self.connectionsReachedCap = connectionsReachedCap
        self.unreadableRecords = unreadableRecords
        self.takenAt = takenAt
        self.names = names
    }

    /// The newest packet of each of the last `limit` connections, newest first.
    func recentConnections(limit: Int) -> [LivePacket] {
        var seen: Set<FlowKey> = []
        var picked: [LivePacket] = []
        for packet in recent.reversed() where picked.count < limit && seen.insert(packet.flowKey).inserted {
            picked.append(packet)
        }
        return picked
    }

    /// The connections a dashboard of `talkers` host rows and `recent` connection rows shows,
    /// most visible first: what the history is asked about.
    func flowsToName(talkers: Int, recent: Int) -> [FlowKey] {
        topTalkers.prefix(talkers).map(\.latestFlow) + recentConnections(limit: recent).map(\.flowKey)
    }
}
