import Foundation
import Shared

/// Bytes per remote host over the same buckets as the throughput window, for "busiest hosts right
/// now". Each bucket tracks at most `hostsPerBucket` hosts; the rest of its bytes are counted as
/// `otherBytes`, so memory stays fixed however many hosts talk.
package struct TalkerWindow: Sendable, Equatable {
    private struct Tally: Sendable, Equatable {
        var bytesIn: UInt64
        var bytesOut: UInt64
        var latestFlow: FlowKey
    }

    private struct Bucket: Sendable, Equatable {
        var index: Int64 = .min
        var hosts: [IPAddress: Tally] = [:]
        var otherBytes: UInt64 = 0
    }

    package let bucketDuration: TimeInterval
    package let hostsPerBucket: Int
    private var buckets: [Bucket]

    package init(bucketDuration: TimeInterval, windowDuration: TimeInterval, hostsPerBucket: Int) {
        self.bucketDuration = bucketDuration
        self.hostsPerBucket = hostsPerBucket
        buckets = Array(repeating: Bucket(), count: Int((windowDuration / bucketDuration).rounded(.up)))
    }

    /// Packets without a local/remote split belong to no host: the caller leaves them out.
    package mutating func add(date: Date, remote: IPAddress, flow: FlowKey, direction: Direction, length: UInt32) {
        let index = Int64((date.timeIntervalSince1970 / bucketDuration).rounded(.down))
        let slot = Self.slot(of: index, count: buckets.count)
        if buckets[slot].index > index { return }   // older than the window: the throughput counts it late
        if buckets[slot].index != index { buckets[slot] = Bucket(index: index) }
        let bytes = UInt64(length)
        if var tally = buckets[slot].hosts[remote] {
            if direction == .inbound { tally.bytesIn &+= bytes } else { tally.bytesOut &+= bytes }
            tally.latestFlow = flow
            buckets[slot].hosts[remote] = tally
        } else if buckets[slot].hosts.count < hostsPerBucket {
            buckets[slot].hosts[remote] = Tally(bytesIn: direction == .inbound ? bytes : 0,
                                                bytesOut: direction == .outbound ? bytes : 0, latestFlow: flow)
        } else {
            buckets[slot].otherBytes &+= bytes
        }
    }

    /// The `limit` busiest hosts of the window ending at `now`, most bytes first (ties by address,
    /// so the order is stable from frame to frame).
    package func top(asOf now: Date, limit: Int) -> [LiveTalker] {
        let last = Int64((now.timeIntervalSince1970 / bucketDuration).rounded(.down))
        let first = last - Int64(buckets.count) + 1
        var totals: [IPAddress: (bytesIn: UInt64, bytesOut: UInt64, flow: FlowKey, index: Int64)] = [:]
        for bucket in buckets where bucket.index >= first && bucket.index <= last {
            for (host, tally) in bucket.hosts {
                var total = totals[host] ?? (0, 0, tally.latestFlow, .min)
                total.bytesIn &+= tally.bytesIn
                total.bytesOut &+= tally.bytesOut
                if bucket.index > total.index { (total.flow, total.index) = (tally.latestFlow, bucket.index) }
                totals[host] = total
            }
        }
        let talkers = totals.map { LiveTalker(remote: $0.key, bytesIn: $0.value.bytesIn, bytesOut: $0.value.bytesOut,
                                              latestFlow: $0.value.flow) }
        return Array(talkers.sorted { ($0.bytes, "\($1.remote)") > ($1.bytes, "\($0.remote)") }.prefix(limit))
    }

    package mutating func reset() {
        buckets = Array(repeating: Bucket(), count: buckets.count)
    }

    private static func slot(of index: Int64, count: Int) -> Int {
        let remainder = Int(index % Int64(count))
        return remainder < 0 ? remainder + count : remainder
    }
}
