import Foundation
@testable import Linux
import Shared
import Testing

/// The routed target's rules and routes, as a plan (`ip` arguments written out by hand here) and
/// as iproute2 lists them back (its JSON, as iproute2 6.1 prints it).
@Suite("The routed target's rules")
struct RoutedPlanTests {
    static let v4 = IPAddress(parsing: "198.18.77.2")!
    static let v6 = IPAddress(parsing: "fd00:77::2")!

    @Test("per family with a default route: the uplink's addresses direct, main's specific routes direct, the rest unmarked through our table; removed in reverse")
    func commands() {
        let plan = RoutedPlan(device: "tv3", families: [.v6, .v4], uplinkAddresses: [Self.v6, Self.v4])
        #expect(plan.applyCommands == [
            ["-4", "route", "add", "default", "dev", "tv3", "table", "29814"],
            ["-6", "route", "add", "default", "dev", "tv3", "table", "29814"],
            ["-4", "rule", "add", "from", "198.18.77.2", "lookup", "main", "priority", "29810"],
            ["-4", "rule", "add", "lookup", "main", "suppress_prefixlength", "0", "priority", "29811"],
            ["-4", "rule", "add", "not", "fwmark", "0x7476", "lookup", "29814", "priority", "29812"],
            ["-6", "rule", "add", "from", "fd00:77::2", "lookup", "main", "priority", "29810"],
            ["-6", "rule", "add", "lookup", "main", "suppress_prefixlength", "0", "priority", "29811"],
            ["-6", "rule", "add", "not", "fwmark", "0x7476", "lookup", "29814", "priority", "29812"],
        ])
        #expect(plan.removeCommands == [
            ["-6", "rule", "del", "not", "fwmark", "0x7476", "lookup", "29814", "priority", "29812"],
            ["-6", "rule", "del", "lookup", "main", "suppress_prefixlength", "0", "priority", "29811"],
            ["-6", "rule", "del", "from", "fd00:77::2", "lookup", "main", "priority", "29810"],
            ["-4", "rule", "del", "not", "fwmark", "0x7476", "lookup", "29814", "priority", "29812"],
            ["-4", "rule", "del", "lookup", "main", "suppress_prefixlength", "0", "priority", "29811"],
            ["-4", "rule", "del", "from", "198.18.77.2", "lookup", "main", "priority", "29810"],
            ["-4", "route", "flush", "table", "29814"],
            ["-6", "route", "flush", "table", "29814"],
        ])
        // A family without a default route is left alone: no route, no rule.
        let v4Only = RoutedPlan(device: "tv3", families: [.v4], uplinkAddresses: [Self.v4, Self.v6])
        #expect(v4Only.rules.allSatisfy { $0.family == .v4 } && v4Only.rules.count == 3)
        #expect(!v4Only.applyCommands.contains { $0.first == "-6" })
    }

    @Test("leftovers: exactly the rules a plan adds are ours; anything else at our priorities is kept and reported")
    func leftovers() throws {
        let v4 = #"""
            [{"priority":0,"src":"all","table":"local"},{"priority":29810,"src":"198.18.77.2","table":"main"},
             {"priority":29811,"src":"all","table":"main","suppress_prefixlen":0},
             {"priority":29812,"not":null,"src":"all","fwmark":"0x7476","table":"29814"},
             {"priority":29810,"src":"198.18.77.0","srclen":24,"table":"main"},
             {"priority":29812,"not":null,"src":"all","fwmark":"0x1","table":"29814"},
             {"priority":29815,"src":"all","table":"main"},
             {"priority":29811,"src":"all","iif":"eth0","table":"main","suppress_prefixlen":0},
             {"priority":32766,"src":"all","table":"main"},{"priority":32767,"src":"all","table":"default"}]
            """#
        let v6 = #"""
            [{"priority":0,"src":"all","table":"local"},{"priority":29812,"not":null,"src":"all","fwmark":"0x7476","table":"29814"},
             {"priority":29810,"src":"fd00:77::2","table":"main"},{"priority":32766,"src":"all","table":"main"}]
            """#
        var found = RoutedLeftovers()
        try found.read(Data(v4.utf8), family: .v4)
        try found.read(Data(v6.utf8), family: .v6)
        #expect(found.rules == [
            RoutedPlan.Rule(family: .v4, selector: .from(Self.v4)), RoutedPlan.Rule(family: .v4, selector: .mainExceptDefault),
            RoutedPlan.Rule(family: .v4, selector: .unmarked), RoutedPlan.Rule(family: .v6, selector: .unmarked),
            RoutedPlan.Rule(family: .v6, selector: .from(Self.v6)),
        ])
        #expect(found.foreign.count == 4, "\(found.foreign)")
        #expect(found.foreign.contains("priority=29815 src=all table=main"))
        var broken = RoutedLeftovers()
        #expect(throws: RoutedLeftovers.Failure.self) { try broken.read(Data("Error: nope".utf8), family: .v4) }
        #expect(throws: RoutedLeftovers.Failure.self) { try broken.read(Data(#"[{"src":"all"}]"#.utf8), family: .v4) }
    }

    @Test("a network change under a running plan: a new uplink address gets its rule before the old one's goes, a family gains our route and rules, a family that lost its default route loses them; the same plan changes nothing")
    func changesFollowTheNetwork() {
        let before = RoutedPlan(device: "tv3", families: [.v4], uplinkAddresses: [Self.v4])
        let moved = IPAddress(parsing: "198.18.78.2")!
        let after = RoutedPlan(device: "tv3", families: [.v4, .v6], uplinkAddresses: [moved, Self.v6])
        #expect(before.changes(to: after) == [
            ["-6", "route", "add", "default", "dev", "tv3", "table", "29814"],
            ["-4", "rule", "add", "from", "198.18.78.2", "lookup", "main", "priority", "29810"],
            ["-6", "rule", "add", "from", "fd00:77::2", "lookup", "main", "priority", "29810"],
            ["-6", "rule", "add", "lookup", "main", "suppress_prefixlength", "0", "priority", "29811"],
            ["-6", "rule", "add", "not", "fwmark", "0x7476", "lookup", "29814", "priority", "29812"],
            ["-4", "rule", "del", "from", "198.18.77.2", "lookup", "main", "priority", "29810"],
        ])
        #expect(after.changes(to: before) == [
            ["-4", "rule", "add", "from", "198.18.77.2", "lookup", "main", "priority", "29810"],
            ["-6", "rule", "del", "not", "fwmark", "0x7476", "lookup", "29814", "priority", "29812"],
            ["-6", "rule", "del", "lookup", "main", "suppress_prefixlength", "0", "priority", "29811"],
            ["-6", "rule", "del", "from", "fd00:77::2", "lookup", "main", "priority", "29810"],
            ["-4", "rule", "del", "from", "198.18.78.2", "lookup", "main", "priority", "29810"],
            ["-6", "route", "flush", "table", "29814"],
        ])
        #expect(after.changes(to: after).isEmpty)
    }
}
