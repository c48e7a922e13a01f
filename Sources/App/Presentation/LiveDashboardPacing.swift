import Foundation

/// How the terminal dashboard coalesces: the reader drains on every wakeup, but a frame is drawn
/// at most once per `interval`. A snapshot that arrives sooner is not drawn; one frame is owed
/// instead, due `interval` after the last, and drawing it settles every snapshot that came in
/// between (the frame shows the newest). A resize is drawn at once: a frame for the old size is
/// wrong, not merely stale.
package struct LiveDashboardPacing: Sendable, Equatable {
    package enum Decision: Sendable, Equatable {
        case drawNow
        /// Draw at this instant (schedule it once).
        case drawAt(Date)
        /// A frame is already owed; nothing to schedule.
        case alreadyOwed
    }

    package let interval: TimeInterval
    private(set) var lastDrawn: Date?
    package private(set) var owed: Date?

    package init(interval: TimeInterval = 1) { self.interval = interval }

    package mutating func snapshotArrived(now: Date) -> Decision {
        if owed != nil { return .alreadyOwed }
        guard let lastDrawn, now.timeIntervalSince(lastDrawn) < interval else { return .drawNow }
        let due = lastDrawn.addingTimeInterval(interval)
        owed = due
        return .drawAt(due)
    }

    package mutating func drew(at now: Date) {
        lastDrawn = now
        owed = nil
    }
}
