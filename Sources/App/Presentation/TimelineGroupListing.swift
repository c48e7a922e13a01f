import Foundation
import Shared

/// What `tunnelvision flows --group host|program` shows: one line a group with its totals over the
/// whole filtered history, ranked by bytes (received + sent), the most first, and a footer that
/// says how many groups there are and how to list one group's connections.
package struct TimelineGroupListing: Sendable {
    package let groups: HistoryGroups
    package let filter: HistoryFilter
    package let dataDirectory: String?

    package init(groups: HistoryGroups, filter: HistoryFilter, dataDirectory: String?) {
        self.groups = groups
        self.filter = filter
        self.dataDirectory = dataDirectory
    }

    var what: (one: String, many: String) {
        switch groups.grouping {
        case .host: ("host", "hosts")
        case .program: ("program", "programs")
        }
    }

    package func text() -> String {
        var lines: [String] = []
        if !groups.groups.isEmpty {
            var rows = [[what.one.uppercased(), "CONNECTIONS", "RECEIVED", "SENT", "PACKETS", "FIRST ACTIVE (UTC)", "LAST ACTIVE (UTC)"]]
            for group in groups.groups {
                let totals = group.totals
                rows.append([group.label, "\(totals.connections)", ByteCountText.binary(totals.bytesIn), ByteCountText.binary(totals.bytesOut),
                             "\(totals.packets)", HistoryFlowWording.time(totals.firstSeen), HistoryFlowWording.time(totals.lastSeen)])
            }
            lines += RunSummary.aligned(rows)
            lines.append("")
        }
        lines.append(footer)
        return lines.joined(separator: "\n")
    }

    package var footer: String {
        guard groups.total > 0 else {
            return filter.isActive ? "no connections match, so no \(what.many)" : "no connections recorded yet, so no \(what.many)"
        }
        let count = groups.total == 1 ? "1 \(what.one)" : "\(groups.total) \(what.many)"
        let shown = groups.groups.count < groups.total ? ", the \(groups.groups.count) with the most bytes shown" : ""
        var words = ["tunnelvision", "flows"]
        if let dataDirectory { words += ["--data-dir", TimelineListing.quoted(dataDirectory)] }
        let example = groups.groups.first?.term.map { term in
            var narrowed = filter
            narrowed.searchText = filter.isSearching ? "\(filter.searchText) \(term)" : term
            return (words + TimelineListing.filterWords(narrowed)).joined(separator: " ")
        }
        return "\(count)\(shown), over every connection the filters keep; ranked by \(HistoryGrouping.ranking)"
            + (example.map { "; one group's connections: \($0)" } ?? "")
    }

    /// {"group", "ranking", "groups": [{"label", "value" (the name, address or command; null for
    /// no program named), "term" (the search term that lists the group, or null), "connections",
    /// "bytesIn", "bytesOut", "packets", "firstSeen", "lastSeen"}], "totalGroups", "rowByRow",
    /// "filter"}.
    package func json() -> String {
        var out = JSONWriter()
        out.beginObject()
        out.string("group", groups.grouping.rawValue)
        out.string("ranking", HistoryGrouping.ranking)
        out.beginArray("groups")
        for group in groups.groups {
            let totals = group.totals
            out.beginObject()
            out.string("label", group.label)
            out.string("value", group.term == nil && groups.grouping == .program ? nil : group.label)
            out.string("term", group.term)
            out.number("connections", totals.connections)
            out.size("bytesIn", totals.bytesIn)
            out.size("bytesOut", totals.bytesOut)
            out.number("packets", totals.packets)
            HistoryFlowWording.write("firstSeen", totals.firstSeen, to: &out)
            HistoryFlowWording.write("lastSeen", totals.lastSeen, to: &out)
            out.endObject()
        }
        out.endArray()
        out.number("totalGroups", groups.total)
        out.bool("rowByRow", groups.matchedRowByRow)
        TimelineListing.writeFilter(filter, to: &out)
        out.endObject()
        return out.writer.string
    }
}
