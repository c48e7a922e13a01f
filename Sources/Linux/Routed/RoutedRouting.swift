import Foundation
import Shared

/// The shell of `RoutedPlan`: iproute2 run inside the target's namespace — by name, or by a path
/// such as /proc/PID/ns/net for a container found from one of its processes.
package struct RoutedRouting: Sendable {
    /// `ip`, as run inside the target.
    let ip: [String]

    /// The namespace `ip netns` knows as `name`.
    package init(namespaceName name: String) { ip = ["ip", "-n", name] }

    /// The namespace `path` refers to (/proc/PID/ns/net).
    package init(namespacePath path: String) { ip = ["nsenter", "--net=\(path)", "ip"] }

    /// A routed service's target, as it reaches it.
    package init(target: RoutedTarget) { ip = target.ip }

    /// Runs the plan in order. On a failure, whatever it added is removed again and the failure
    /// thrown: the target is left as it was.
    package func apply(_ plan: RoutedPlan) throws(CommandError) {
        do throws(CommandError) {
            for command in plan.applyCommands { try ExternalCommand.run(ip + command) }
        } catch {
            _ = remove(plan)
            throw error
        }
    }

    /// Removes the plan's rules and flushes our table, trying every command; what refused (a rule
    /// already gone says so too) is returned.
    @discardableResult
    package func remove(_ plan: RoutedPlan) -> [CommandError] {
        run(plan.removeCommands)
    }

    /// Runs `commands` (a plan's `changes(to:)`), trying every one; what refused is returned.
    package func change(_ commands: [[String]]) -> [CommandError] {
        run(commands)
    }

    /// What an earlier session left in the target.
    package func leftovers() throws(RoutedLeftovers.Failure) -> RoutedLeftovers {
        var found = RoutedLeftovers()
        for family in RoutedPlan.Family.allCases {
            let listed: CommandOutput
            do { listed = try ExternalCommand.run(ip + ["-j", family.rawValue, "rule", "show"]) } catch {
                throw .unreadable("\(error)")
            }
            try found.read(Data(listed.standardOutput.utf8), family: family)
        }
        return found
    }

    /// Removes what `leftovers` found of ours, and our table's routes; returns what refused.
    @discardableResult
    package func sweep(_ leftovers: RoutedLeftovers) -> [CommandError] {
        run(RoutedPlan.removeCommands(rules: leftovers.rules.sorted { $0.priority > $1.priority },
                                      families: RoutedPlan.Family.allCases))
    }

    /// Runs every command; what refused, but a flush of our table when it was never made.
    private func run(_ commands: [[String]]) -> [CommandError] {
        commands.compactMap { command -> CommandError? in
            do throws(CommandError) {
                try ExternalCommand.run(ip + command)
                return nil
            } catch {
                if command.contains("flush"), case .failed(_, _, let said) = error, said.contains("FIB table does not exist") {
                    return nil
                }
                return error
            }
        }
    }
}
