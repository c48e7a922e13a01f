import Foundation
import Shared

/// What an earlier routed session left in a target (a `kill -9` skips `down`): its device and the
/// routes through it went with the process, its rules did not. Read from `ip -j rule show`, a
/// rule is ours only when it is exactly one `RoutedPlan` adds — its priority, its selector, its
/// table and nothing more; anything else at our priorities is someone else's, reported and kept.
package struct RoutedLeftovers: Sendable, Equatable {
    package var rules: [RoutedPlan.Rule] = []
    /// Rules at our priorities that are not ours, as `ip` listed them.
    package var foreign: [String] = []

    package enum Failure: Error, Equatable, CustomStringConvertible {
        case unreadable(String)
        package var description: String {
            switch self {
            case .unreadable(let why): "the target's routing could not be read: \(why)"
            }
        }
    }

    package init(rules: [RoutedPlan.Rule] = [], foreign: [String] = []) {
        self.rules = rules
        self.foreign = foreign
    }

    /// Adds what `json` (`ip -j -4|-6 rule show`) lists of ours in `family`.
    package mutating func read(_ json: Data, family: RoutedPlan.Family) throws(Failure) {
        let parsed: Any
        do { parsed = try JSONSerialization.jsonObject(with: json) } catch { throw .unreadable("its rules are not JSON (\(error.localizedDescription))") }
        guard let entries = parsed as? [[String: Any]] else { throw .unreadable("its rules are not a JSON list") }
        for entry in entries {
            guard let priority = entry["priority"] as? Int else { throw .unreadable("a rule without its priority") }
            guard RoutedPlan.priorities.contains(priority) else { continue }
            if let rule = Self.ours(entry, family: family), rule.priority == priority {
                rules.append(rule)
            } else {
                foreign.append(Self.text(entry))
            }
        }
    }

    /// The rule of ours `entry` is, when it is exactly one.
    static func ours(_ entry: [String: Any], family: RoutedPlan.Family) -> RoutedPlan.Rule? {
        let keys = Set(entry.keys)
        let source = entry["src"] as? String
        let table = entry["table"] as? String
        if keys == ["priority", "src", "table"], table == "main", let source, let address = IPAddress(parsing: source),
           RoutedPlan.family(of: address) == family {
            return RoutedPlan.Rule(family: family, selector: .from(address))
        }
        if keys == ["priority", "src", "table", "suppress_prefixlen"], source == "all", table == "main",
           entry["suppress_prefixlen"] as? Int == 0 {
            return RoutedPlan.Rule(family: family, selector: .mainExceptDefault)
        }
        if keys == ["priority", "not", "src", "fwmark", "table"], source == "all", table == "\(RoutedPlan.table)",
           (entry["fwmark"] as? String).flatMap(Self.number) == RoutedPlan.mark {
            return RoutedPlan.Rule(family: family, selector: .unmarked)
        }
        return nil
    }

    /// "0x7476" or "29814".
    static func number(_ text: String) -> UInt32? {
        text.hasPrefix("0x") ? UInt32(text.dropFirst(2), radix: 16) : UInt32(text)
    }

    static func text(_ entry: [String: Any]) -> String {
        entry.keys.sorted().map { key in "\(key)=\(entry[key].map { "\($0)" } ?? "null")" }.joined(separator: " ")
    }
}
