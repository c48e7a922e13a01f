import Foundation
import Shared

/// What the timeline can be grouped by (`flows --group`, the Timeline's "Group by"): the host a
/// connection went to — its name, else its remote address — or the program that opened it, each
/// group with its totals over the whole filtered history, ranked by bytes (received + sent), the
/// most first.
package enum HistoryGrouping: String, Sendable, CaseIterable {
    case host, program

    /// The store's value for the group a flow is in: the same expression the list sorts by.
    package var key: FlowOrder.Key {
        switch self {
        case .host: .host
        case .program: .program
        }
    }

    /// The sentence that refuses `text`, naming what can be grouped by.
    package static func refusal(_ text: String, command: String) -> String {
        "\(command): unknown group '\(text)': give " + allCases.map(\.rawValue).joined(separator: " or ")
    }

    /// How the groups are ranked, as a person says it.
    package static let ranking = "most bytes (received + sent) first"
}

/// One group as a screen shows it: its totals, what it is called, and the search term that lists
/// its connections (nil when no term can say it: flows with no program named).
package struct HistoryGroup: Sendable, Equatable {
    package let totals: FlowGroupTotals
    package let label: String
    package let term: String?

    init(_ totals: FlowGroupTotals, grouping: HistoryGrouping) {
        self.totals = totals
        switch (grouping, totals.value) {
        case (.host, .text(let name)):
            label = name
            term = FlowQuery.term(.host, name)
        case (.host, .blob(let bytes)):
            let address = IPAddress(bytes: bytes).map { "\($0)" }
            label = address ?? "unknown address"
            term = address
        case (.program, .text(let command)):
            label = command
            term = FlowQuery.term(.program, command)
        case (.host, _), (.program, _):
            label = grouping == .host ? "unknown host" : "No program named"
            term = nil
        }
    }
}

/// The groups of one question: the first `limit`, and how many there are in all.
package struct HistoryGroups: Sendable, Equatable {
    package let grouping: HistoryGrouping
    package let groups: [HistoryGroup]
    package let total: Int
    /// Whether the search was matched row by row (a search the store cannot narrow by): every
    /// row was still read, so the totals are exact, only slower.
    package let matchedRowByRow: Bool
}
