import Shared

/// How a routed target's traffic is sent through the tunnel (DESIGN.md § What is monitored,
/// routed), wg-quick's way: the target's default routes are shadowed by ours, in a table of ours,
/// through the TUN; the relay's own sockets carry `mark` and skip that table, so they leave by the
/// target's own routes and nothing loops. Pure: the target's facts in, `ip` arguments out (each
/// after `ip`, run inside the target's namespace by the shell).
///
/// Per family the target has a default route in:
///   - `from ADDRESS lookup main` for each of its uplink's addresses: replies to the relay's
///     marked sockets pass strict reverse-path filtering (the check looks the source up unmarked),
///     and services on the target answer by their own routes;
///   - `lookup main suppress_prefixlength 0`: whatever the main table routes more specifically
///     than a default route (loopback, link-local, its own subnets) stays direct;
///   - `not fwmark MARK lookup TABLE`: everything else, unless marked, through the TUN.
/// Rules and routes live only at `priorities` and in `table`: `down` and the leftovers sweep
/// remove exactly these, never anything else.
package struct RoutedPlan: Sendable, Equatable {
    /// Our routing table ("tv"), the relay sockets' mark, and the rule priorities we claim.
    package static let table: UInt32 = 0x7476
    package static let mark: UInt32 = 0x7476
    package static let priorities: ClosedRange<Int> = 29_810...29_819

    package enum Family: String, Sendable, CaseIterable {
        case v4 = "-4", v6 = "-6"
    }

    /// One rule of ours, as `ip rule` takes and lists it.
    package struct Rule: Sendable, Equatable, Hashable {
        package enum Selector: Sendable, Equatable, Hashable {
            /// `from ADDRESS lookup main`
            case from(IPAddress)
            /// `lookup main suppress_prefixlength 0`
            case mainExceptDefault
            /// `not fwmark MARK lookup TABLE`
            case unmarked
        }

        package let family: Family
        package let selector: Selector

        package init(family: Family, selector: Selector) {
            self.family = family
            self.selector = selector
        }

        package var priority: Int {
            switch selector {
            case .from: RoutedPlan.priorities.lowerBound
            case .mainExceptDefault: RoutedPlan.priorities.lowerBound + 1
            case .unmarked: RoutedPlan.priorities.lowerBound + 2
            }
        }

        /// What follows `ip -4 rule add` (or `del`): the selector, the table and the priority.
        package var arguments: [String] {
            let match: [String] = switch selector {
            case .from(let address): ["from", address.description, "lookup", "main"]
            case .mainExceptDefault: ["lookup", "main", "suppress_prefixlength", "0"]
            case .unmarked: ["not", "fwmark", RoutedPlan.markText, "lookup", "\(RoutedPlan.table)"]
            }
            return match + ["priority", "\(priority)"]
        }
    }

    static var markText: String { "0x" + String(mark, radix: 16) }

    /// The TUN inside the target.
    package let device: String
    /// The families the target has a default route in: only those are sent through the tunnel
    /// (a family without one has nowhere to go, and a route of ours would only make it fail later).
    package let families: [Family]
    /// The target's own addresses on its uplinks (not loopback, not link-local).
    package let uplinkAddresses: [IPAddress]

    package init(device: String, families: [Family], uplinkAddresses: [IPAddress]) {
        self.device = device
        self.families = Family.allCases.filter(families.contains)
        self.uplinkAddresses = uplinkAddresses
    }

    package var rules: [Rule] {
        families.flatMap { family in
            uplinkAddresses.filter { Self.family(of: $0) == family }.map { Rule(family: family, selector: .from($0)) }
                + [Rule(family: family, selector: .mainExceptDefault), Rule(family: family, selector: .unmarked)]
        }
    }

    /// In order: the routes into our table first, then the rules, the one that diverts last — so
    /// the target's traffic never meets an empty table.
    package var applyCommands: [[String]] {
        families.map { [$0.rawValue, "route", "add", "default", "dev", device, "table", "\(Self.table)"] }
            + rules.map { [$0.family.rawValue, "rule", "add"] + $0.arguments }
    }

    /// The reverse: the diverting rule first, then the others, then our table's routes.
    package var removeCommands: [[String]] {
        Self.removeCommands(rules: rules.reversed(), families: families)
    }

    /// Removes `rules` (already found to be ours) and flushes our table in `families`.
    package static func removeCommands(rules: [Rule], families: [Family]) -> [[String]] {
        rules.map { [$0.family.rawValue, "rule", "del"] + $0.arguments }
            + families.map { [$0.rawValue, "route", "flush", "table", "\(table)"] }
    }

    /// What turns this plan, applied, into `next` (the same device: the target's network changed
    /// under it): our table's route in each family that gained a default route, the rules that are
    /// new (a family's diverting rule last, as in `applyCommands`), the rules that went (the
    /// diverting one first), then our table flushed in each family that lost its default route.
    /// Nothing when the plans are the same.
    package func changes(to next: RoutedPlan) -> [[String]] {
        let gained = next.families.filter { !families.contains($0) }
        let lost = families.filter { !next.families.contains($0) }
        let kept = Set(rules), wanted = Set(next.rules)
        return gained.map { [$0.rawValue, "route", "add", "default", "dev", device, "table", "\(Self.table)"] }
            + next.rules.filter { !kept.contains($0) }.map { [$0.family.rawValue, "rule", "add"] + $0.arguments }
            + rules.reversed().filter { !wanted.contains($0) }.map { [$0.family.rawValue, "rule", "del"] + $0.arguments }
            + lost.map { [$0.rawValue, "route", "flush", "table", "\(Self.table)"] }
    }

    static func family(of address: IPAddress) -> Family {
        address.version == .v4 ? .v4 : .v6
    }
}
