import Foundation
import Shared

/// The chart's rolling window: a ring of fixed-width buckets indexed by
/// floor(t / bucketDuration) since the epoch — O(1) per packet, fixed memory, and an alignment
/// that does not depend on when the window was made, so the axis is deterministic.
///
/// Two rules carry the chart's honesty (the seed names them without listing them; these are ours):
/// - An interval without packets is a zero sample, never left out or bridged: a stall shows.
/// - A record older than the window — behind the newest record seen by a whole window — cannot
///   be placed without rewriting history already drawn, so it is counted in `lateRecords`, not
///   added. A record out of order but inside the window lands in its own bucket.
package struct ThroughputWindow: Sendable, Equatable {
    private struct Bucket: Sendable, Equatable {
        var index: Int64
        var bytesIn: UInt64
        var bytesOut: UInt64
    }

    package let bucketDuration: TimeInterval
    package let windowDuration: TimeInterval
    /// Records dated before the window could still hold them.
    package private(set) var lateRecords: UInt64 = 0
    private var buckets: [Bucket]
    private var newestIndex: Int64?

    package init(bucketDuration: TimeInterval = 1, windowDuration: TimeInterval = 60) {
        precondition(bucketDuration > 0 && windowDuration >= bucketDuration, "a window holds at least one bucket")
        self.bucketDuration = bucketDuration
        self.windowDuration = windowDuration
        let count = Int((windowDuration / bucketDuration).rounded(.up))
        buckets = Array(repeating: Bucket(index: .min, bytesIn: 0, bytesOut: 0), count: count)
    }

    var bucketCount: Int { buckets.count }

    /// The bucket `date` falls in, counted since the epoch.
    func bucketIndex(of date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / bucketDuration).rounded(.down))
    }

    package mutating func add(date: Date, direction: Direction, length: UInt32) {
        let index = bucketIndex(of: date)
        if let newest = newestIndex, index <= newest - Int64(buckets.count) {
            lateRecords += 1
            return
        }
        if index > newestIndex ?? .min { newestIndex = index }
        let slot = Self.slot(of: index, count: buckets.count)
        if buckets[slot].index != index { buckets[slot] = Bucket(index: index, bytesIn: 0, bytesOut: 0) }
        switch direction {
        case .inbound: buckets[slot].bytesIn &+= UInt64(length)
        case .outbound: buckets[slot].bytesOut &+= UInt64(length)
        }
    }

    /// The window ending with the bucket that holds `now`, oldest first, every interval present
    /// (zero when nothing was seen in it).
    package func samples(asOf now: Date) -> [ThroughputSample] {
        let last = bucketIndex(of: now)
        let first = last - Int64(buckets.count) + 1
        return (first...last).map { index in
            let bucket = buckets[Self.slot(of: index, count: buckets.count)]
            let held = bucket.index == index
            return ThroughputSample(start: Date(timeIntervalSince1970: Double(index) * bucketDuration),
                                    duration: bucketDuration,
                                    bytesIn: held ? bucket.bytesIn : 0, bytesOut: held ? bucket.bytesOut : 0)
        }
    }

    package mutating func reset() {
        self = ThroughputWindow(bucketDuration: bucketDuration, windowDuration: windowDuration)
    }

    private static func slot(of index: Int64, count: Int) -> Int {
        let remainder = Int(index % Int64(count))
        return remainder < 0 ? remainder + count : remainder
    }
}
