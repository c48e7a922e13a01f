import Foundation
import Shared

/// What a `RoutedPlan` needs to know of its target, as iproute2 lists it there: the families it
/// has a default route in, and the uplinks' own addresses — the global addresses of the devices
/// those default routes leave by.
package struct RoutedTargetFacts: Sendable, Equatable {
    package var families: [RoutedPlan.Family]
    package var uplinkAddresses: [IPAddress]

    package init(families: [RoutedPlan.Family], uplinkAddresses: [IPAddress]) {
        self.families = families
        self.uplinkAddresses = uplinkAddresses
    }

    /// From `ip -j -4 route show default`, `ip -j -6 route show default` and `ip -j addr show`.
    package static func read(defaultRoutes v4: Data, _ v6: Data, addresses: Data) throws(RoutedLeftovers.Failure) -> RoutedTargetFacts {
        var families: [RoutedPlan.Family] = []
        var uplinks: Set<String> = []
        for (family, json) in [(RoutedPlan.Family.v4, v4), (.v6, v6)] {
            let routes = try list(json, "default routes")
            if !routes.isEmpty { families.append(family) }
            for route in routes {
                if let device = route["dev"] as? String { uplinks.insert(device) }
                for hop in route["nexthops"] as? [[String: Any]] ?? [] { if let device = hop["dev"] as? String { uplinks.insert(device) } }
            }
        }
        var found: [IPAddress] = []
        for link in try list(addresses, "addresses") where uplinks.contains(link["ifname"] as? String ?? "") {
            for entry in link["addr_info"] as? [[String: Any]] ?? [] where entry["scope"] as? String == "global" {
                if let local = entry["local"] as? String, let address = IPAddress(parsing: local) { found.append(address) }
            }
        }
        return RoutedTargetFacts(families: families, uplinkAddresses: found)
    }

    private static func list(_ json: Data, _ what: String) throws(RoutedLeftovers.Failure) -> [[String: Any]] {
        guard let parsed = try? JSONSerialization.jsonObject(with: json), let entries = parsed as? [[String: Any]] else {
            throw .unreadable("the target's \(what) are not a JSON list")
        }
        return entries
    }
}

extension RoutedRouting {
    /// The target's facts now.
    package func facts() throws(RoutedLeftovers.Failure) -> RoutedTargetFacts {
        func listed(_ arguments: [String]) throws(RoutedLeftovers.Failure) -> Data {
            do { return Data(try ExternalCommand.run(ip + arguments).standardOutput.utf8) } catch { throw .unreadable("\(error)") }
        }
        return try RoutedTargetFacts.read(defaultRoutes: try listed(["-j", "-4", "route", "show", "default"]),
                                          try listed(["-j", "-6", "route", "show", "default"]),
                                          addresses: try listed(["-j", "addr", "show"]))
    }
}
