import Foundation

/// Every bound of the live reader. The ring belongs to the tunnel and fills at hundreds of
/// thousands of records a second, so the reader is bounded by construction: nothing it holds
/// grows with traffic.
package struct LiveFeedPolicy: Sendable, Equatable {
    /// Bounds the copy of one pass over the ring.
    package var recordsPerDrain: Int
    /// The ceiling of one burst of passes; what is left waits for the next wakeup or heartbeat.
    package var maxDrainsPerBurst: Int
    /// The newest packets kept for the screen; the history is the store's.
    package var recentPacketCapacity: Int
    /// The heartbeat: a drain this often even without a wakeup. Nil turns it off.
    package var idlePollInterval: Duration?
    package var bucketDuration: TimeInterval
    package var windowDuration: TimeInterval
    /// Remote hosts tracked per bucket for the top talkers; the rest are counted as others.
    var talkersPerBucket: Int
    /// Distinct connections counted exactly up to this many in a session, then "at least".
    var connectionCountCap: Int

    package init(recordsPerDrain: Int = 512, maxDrainsPerBurst: Int = 8, recentPacketCapacity: Int = 500,
                idlePollInterval: Duration? = .seconds(1), bucketDuration: TimeInterval = 1,
                windowDuration: TimeInterval = 60, talkersPerBucket: Int = 256, connectionCountCap: Int = 100_000) {
        self.recordsPerDrain = recordsPerDrain
        self.maxDrainsPerBurst = maxDrainsPerBurst
        self.recentPacketCapacity = recentPacketCapacity
        self.idlePollInterval = idlePollInterval
        self.bucketDuration = bucketDuration
        self.windowDuration = windowDuration
        self.talkersPerBucket = talkersPerBucket
        self.connectionCountCap = connectionCountCap
    }

    package static let `default` = LiveFeedPolicy()
}
