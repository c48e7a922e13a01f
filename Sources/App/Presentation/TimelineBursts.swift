import Foundation
import Shared

/// Which consecutive rows of a listing are one burst: fifty parallel requests to one host read as
/// one row, not fifty identical ones. Rows are alike when they go to the same host (the name, or
/// the address when unnamed) and port with the same protocol and status; alike rows, each started
/// within `maximumGap` of the row before it, are a burst when there are at least `minimumCount`.
/// Pure: the timeline and the run's summary hand in their rows in the order they show them, and
/// get back that order cut into stretches. A page is grouped on its own, so a burst the page's end
/// cuts shows as what this page holds of it (see `TimelineListing`).
package enum TimelineBursts {
    /// Fewer alike rows than this are shown one by one: four requests are still four rows a person
    /// reads at a glance.
    package static let minimumCount = 5
    /// The longest pause between two rows' starts inside one burst: parallel requests start within
    /// milliseconds of each other; a second apart they are a person or a timer, not one burst.
    package static let maximumGap: TimeInterval = 1

    /// What two rows must share to be part of one burst.
    package struct Likeness: Sendable, Hashable {
        package let host: String
        package let port: UInt16?
        package let proto: IPProtocolNumber
        package let status: TLSInspectionStatus?

        package init(host: String, port: UInt16?, proto: IPProtocolNumber, status: TLSInspectionStatus?) {
            self.host = host
            self.port = port
            self.proto = proto
            self.status = status
        }
    }

    /// One row as the decision sees it; a row with no likeness (no host known) or no start is
    /// never part of a burst.
    package struct Row: Sendable, Equatable {
        package let likeness: Likeness?
        package let started: Date?

        package init(likeness: Likeness?, started: Date?) {
            self.likeness = likeness
            self.started = started
        }
    }

    /// A piece of the listing, in its order: one row shown as it is, or the rows of a burst.
    package enum Stretch: Sendable, Equatable {
        case single(Int)
        case burst(Range<Int>)

        /// The rows this stretch covers.
        package var rows: Range<Int> {
            switch self {
            case let .single(index): index..<(index + 1)
            case let .burst(range): range
            }
        }
    }

    /// `rows` cut into stretches, in order, covering every row exactly once.
    package static func stretches(of rows: [Row]) -> [Stretch] {
        var stretches: [Stretch] = []
        var start = 0
        while start < rows.count {
            var end = start + 1
            while end < rows.count, continues(rows[end - 1], with: rows[end]) { end += 1 }
            if end - start >= minimumCount {
                stretches.append(.burst(start..<end))
            } else {
                stretches += (start..<end).map(Stretch.single)
            }
            start = end
        }
        return stretches
    }

    /// Whether `next` belongs to the burst `previous` is in. Rows newest first have decreasing
    /// starts and a summary's oldest first increasing ones: the gap counts either way.
    static func continues(_ previous: Row, with next: Row) -> Bool {
        guard let likeness = previous.likeness, likeness == next.likeness,
              let before = previous.started, let after = next.started else { return false }
        return abs(after.timeIntervalSince(before)) <= maximumGap
    }
}
