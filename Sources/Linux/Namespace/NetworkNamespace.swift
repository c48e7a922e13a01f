import Foundation
import Synchronization

/// A named network namespace (`ip netns`), as the lab and `tunnelvision run` make them. Only
/// namespaces this program created are ever deleted, and only by name.
package final class NetworkNamespace: Sendable {
    package let name: String
    /// Whether `delete()` ran: a cleanup on a signal's thread and the owner's `deinit` may race.
    private let deleted = Mutex(false)

    private init(name: String) {
        self.name = name
    }

    /// Creates `name` (refused if it exists: someone else's namespace is never adopted).
    package static func create(_ name: String) throws(CommandError) -> NetworkNamespace {
        try ExternalCommand.run(["ip", "netns", "add", name])
        return NetworkNamespace(name: name)
    }

    /// The names of every named namespace on the machine; `ip netns list` failing is an error,
    /// never an empty machine.
    package static func names() throws(CommandError) -> [String] {
        let output = try ExternalCommand.run(["ip", "netns", "list"])
        // Lines read "NAME" or "NAME (id: N)".
        return output.standardOutput.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// `arguments` run inside this namespace.
    package func command(_ arguments: [String]) -> [String] { ["ip", "netns", "exec", name] + arguments }

    /// Runs `arguments` inside this namespace.
    @discardableResult
    package func run(_ arguments: [String]) throws(CommandError) -> CommandOutput {
        try ExternalCommand.run(command(arguments))
    }

    /// `ip -n NAME …`: an iproute2 command applied to this namespace.
    @discardableResult
    package func ip(_ arguments: [String]) throws(CommandError) -> CommandOutput {
        try ExternalCommand.run(["ip", "-n", name] + arguments)
    }

    /// Removes the namespace; interfaces in it go with it. Safe to call twice: only the first
    /// call acts. Returns why `ip netns delete` failed (the namespace is then left, for the next
    /// start's sweep of leftovers), nil when it is gone.
    @discardableResult
    package func delete() -> CommandError? {
        let already = deleted.withLock { deleted in
            defer { deleted = true }
            return deleted
        }
        guard !already else { return nil }
        do throws(CommandError) {
            try ExternalCommand.run(["ip", "netns", "delete", name])
            return nil
        } catch {
            return error
        }
    }

    deinit { delete() }
}
