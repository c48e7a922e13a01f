import Foundation

/// One bar of the timeline's activity axis: the packets of every connection in [start, end).
package struct ActivityBar: Sendable, Hashable, Identifiable {
    package let start: Date
    package let duration: TimeInterval
    package let packetCount: Int

    package init(start: Date, duration: TimeInterval, packetCount: Int) {
        self.start = start
        self.duration = duration
        self.packetCount = packetCount
    }

    package var id: Date { start }
    package var end: Date { start.addingTimeInterval(duration) }
    /// The absolute stretch a tap on the bar filters the list to (by overlap).
    package var range: ClosedRange<Date> { start...end }
    /// A zero-filled bar: nothing was recorded then — a statement, not a gap.
    package var isQuiet: Bool { packetCount == 0 }

    /// Whether `date` falls in [start, end).
    package func contains(_ date: Date) -> Bool { date >= start && date < end }
}
