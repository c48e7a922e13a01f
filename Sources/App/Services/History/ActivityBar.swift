import Foundation

/// One bar of the timeline's activity axis: the packets of every connection in [start, end).
public struct ActivityBar: Sendable, Hashable, Identifiable {
    public let start: Date
    public let duration: TimeInterval
    public let packetCount: Int

    public init(start: Date, duration: TimeInterval, packetCount: Int) {
        self.start = start
        self.duration = duration
        self.packetCount = packetCount
    }

    public var id: Date { start }
    public var end: Date { start.addingTimeInterval(duration) }
    /// The absolute stretch a tap on the bar filters the list to (by overlap).
    public var range: ClosedRange<Date> { start...end }
    /// A zero-filled bar: nothing was recorded then — a statement, not a gap.
    public var isQuiet: Bool { packetCount == 0 }

    /// Whether `date` falls in [start, end).
    public func contains(_ date: Date) -> Bool { date >= start && date < end }
}
