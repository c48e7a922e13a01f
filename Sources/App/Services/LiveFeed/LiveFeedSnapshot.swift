import Foundation
import Shared

/// What the live feed knows at one instant: all a dashboard draws.
public struct LiveFeedSnapshot: Sendable, Equatable {
    /// Arrival order; reversing is the view's business.
    public var recent: [LivePacket]
    public var throughput: [ThroughputSample]
    /// Records the tunnel dropped because the ring was full (back-pressure), this session.
    public var droppedRecords: UInt64
    public var bytesIn: UInt64
    public var bytesOut: UInt64
    public var packetCount: UInt64
    public var lateRecords: UInt64
    /// Whether a ring is open.
    public var isAttached: Bool
    public var lastAttachError: IPCError?
    /// The open ring's state: live, closed by its producer (an earlier session), or nil.
    public var ringState: RingFileState?
    /// The open ring's session number.
    public var generation: UInt64?
    /// The busiest remote hosts of the window.
    public var topTalkers: [LiveTalker]
    public var connectionsSeen: Int
    public var connectionsReachedCap: Bool
    /// Slots that described no packet (a foreign writer or damage), counted and skipped.
    public var unreadableRecords: UInt64
    /// The instant the throughput samples end at.
    public var takenAt: Date

    public init(recent: [LivePacket] = [], throughput: [ThroughputSample] = [], droppedRecords: UInt64 = 0,
                bytesIn: UInt64 = 0, bytesOut: UInt64 = 0, packetCount: UInt64 = 0, lateRecords: UInt64 = 0,
                isAttached: Bool = false, lastAttachError: IPCError? = nil, ringState: RingFileState? = nil,
                generation: UInt64? = nil, topTalkers: [LiveTalker] = [], connectionsSeen: Int = 0,
                connectionsReachedCap: Bool = false, unreadableRecords: UInt64 = 0, takenAt: Date) {
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
    }
}
