import Foundation

/// When the web app's one live-feed reader holds the ring: only while somebody watches — an open
/// Dashboard stream, or a page that asked for the line in the last `grace` — so an idle `ui`
/// never keeps another reader (a `run --ui`'s own Dashboard, a `tunnelvision live`) from the feed
/// (the ring has one reader at a time). Pure: the feed asks it each second and on each question.
package struct LiveFeedDemand: Sendable, Equatable {
    /// How long the reader is kept after the last sign of interest: a page reloading or moving
    /// between screens does not make it let go and claim again.
    package let grace: TimeInterval
    package private(set) var reading = false
    private var lastInterest: Date?

    package static let defaultGrace: TimeInterval = 10

    package enum Step: Sendable, Equatable {
        /// Claim the ring and read.
        case start
        /// Let go of the ring.
        case stop
        case stay
    }

    package init(grace: TimeInterval = LiveFeedDemand.defaultGrace) {
        self.grace = grace
    }

    /// A page asked for the line now (`/api/live/now`).
    package mutating func asked(at now: Date) -> Step {
        lastInterest = now
        return settle(at: now)
    }

    /// The once-a-second look: `streams` Dashboard streams are open now.
    package mutating func tick(at now: Date, streams: Int) -> Step {
        if streams > 0 { lastInterest = now }
        return settle(at: now)
    }

    private mutating func settle(at now: Date) -> Step {
        let wanted = lastInterest.map { now.timeIntervalSince($0) <= grace } ?? false
        switch (reading, wanted) {
        case (false, true):
            reading = true
            return .start
        case (true, false):
            reading = false
            return .stop
        default:
            return .stay
        }
    }
}
