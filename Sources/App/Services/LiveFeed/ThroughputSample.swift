import Foundation

/// The bytes of one interval of the throughput chart, by sense.
package struct ThroughputSample: Sendable, Hashable, Identifiable {
    package let start: Date
    package let duration: TimeInterval
    package let bytesIn: UInt64
    package let bytesOut: UInt64

    package init(start: Date, duration: TimeInterval, bytesIn: UInt64, bytesOut: UInt64) {
        self.start = start
        self.duration = duration
        self.bytesIn = bytesIn
        self.bytesOut = bytesOut
    }

    package var id: Date { start }
    package var bytesInPerSecond: Double { Double(bytesIn) / duration }
    package var bytesOutPerSecond: Double { Double(bytesOut) / duration }
}
