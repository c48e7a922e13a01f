import Foundation
import Shared
import Testing
@testable import App

/// A group as a screen shows it: its label and the search term that lists it, read back by the
/// search's own parser; the listing's footer.
@Suite struct HistoryGroupingTests {
    static func totals(_ value: FlowSortValue) -> FlowGroupTotals {
        FlowGroupTotals(value: value, connections: 2, bytesIn: 10, bytesOut: 5, packets: 3,
                        firstSeen: Date(timeIntervalSince1970: 0), lastSeen: Date(timeIntervalSince1970: 60))
    }

    @Test("a host is its name (host:NAME) or its address (the address itself); a program its command (program:CMD, quoted when it holds a space), or no program named, which no term lists")
    func labelsAndTerms() throws {
        let named = HistoryGroup(Self.totals(.text("example.com")), grouping: .host)
        #expect(named.label == "example.com" && named.term == "host:example.com")
        let address = HistoryGroup(Self.totals(.blob([198, 18, 0, 7])), grouping: .host)
        #expect(address.label == "198.18.0.7" && address.term == "198.18.0.7")
        let program = HistoryGroup(Self.totals(.text("Web Content")), grouping: .program)
        #expect(program.label == "Web Content" && program.term == "program:\"Web Content\"")
        let none = HistoryGroup(Self.totals(.blob([])), grouping: .program)
        #expect(none.label == "No program named" && none.term == nil)
        #expect(HistoryGroup(Self.totals(.text("say\"hi")), grouping: .program).term == nil)
        // Each term reads back as the one term it stands for.
        for term in [named.term, address.term, program.term].compactMap({ $0 }) {
            #expect(try FlowQuery(term).terms.count == 1, "\(term)")
        }
    }

    @Test("the footer counts the groups, says which are shown and how they are ranked, and gives the command that lists the first")
    func footer() {
        let groups = HistoryGroups(grouping: .host, groups: [HistoryGroup(Self.totals(.text("a.example")), grouping: .host)],
                                   total: 3, matchedRowByRow: false)
        let listing = TimelineGroupListing(groups: groups, filter: HistoryFilter(searchText: "port:443"), dataDirectory: "/d")
        #expect(listing.footer == "3 hosts, the 1 with the most bytes shown, over every connection the filters keep; ranked by "
                + "most bytes (received + sent) first; one group's connections: tunnelvision flows --data-dir /d --search "
                + "'port:443 host:a.example'")
        let empty = TimelineGroupListing(groups: HistoryGroups(grouping: .program, groups: [], total: 0, matchedRowByRow: false),
                                         filter: .none, dataDirectory: nil)
        #expect(empty.footer == "no connections recorded yet, so no programs")
    }

    @Test("a grouping narrows in the store by the search's name terms that no address could hold, and leaves the others to each row")
    func nameNeedlesTheStoreCanNarrowBy() throws {
        #expect(try FlowQuery("site-1 host:a.example,b.example").requiredNameNeedles == [["site-1"], ["a.example", "b.example"]])
        #expect(try FlowQuery("198.18 cafe -video host:x,1.2").requiredNameNeedles == [])
        #expect(HistoryFilter(searchText: "Video").storeNarrowing(order: nil).nameNeedles == [["video"]])
        #expect(HistoryFilter(searchText: "video").storeNarrowing(order: .newestFirst).nameNeedles == [])
    }
}
