import Foundation

/// The bytes of one interval of the throughput chart, by sense.
public struct ThroughputSample: Sendable, Hashable, Identifiable {
    public let start: Date
    public let duration: TimeInterval
    public let bytesIn: UInt64
    public let bytesOut: UInt64

    public init(start: Date, duration: TimeInterval, bytesIn: UInt64, bytesOut: UInt64) {
        self.start = start
        self.duration = duration
        self.bytesIn = bytesIn
        self.bytesOut = bytesOut
    }

    public var id: Date { start }
    public var bytesInPerSecond: Double { Double(bytesIn) / duration }
    public var bytesOutPerSecond: Double { Double(bytesOut) / duration }
}
