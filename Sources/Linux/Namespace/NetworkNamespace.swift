import Foundation

/// A named network namespace (`ip netns`), as the lab and `tunnelvision run` make them. Only
/// namespaces this program created are ever deleted, and only by name.
public final class NetworkNamespace: @unchecked Sendable {
    public let name: String
    private var deleted = false

    private init(name: String) {
        self.name = name
    }

    /// Creates `name` (refused if it exists: someone else's namespace is never adopted).
    public static func create(_ name: String) throws(CommandError) -> NetworkNamespace {
        try ExternalCommand.run(["ip", "netns", "add", name])
        return NetworkNamespace(name: name)
    }

    /// The names of every named namespace on the machine.
    public static func names() -> [String] {
        guard let output = try? ExternalCommand.run(["ip", "netns", "list"]) else { return [] }
        // Lines read "NAME" or "NAME (id: N)".
        return output.standardOutput.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// `arguments` run inside this namespace.
    public func command(_ arguments: [String]) -> [String] { ["ip", "netns", "exec", name] + arguments }

    /// Runs `arguments` inside this namespace.
    @discardableResult
    public func run(_ arguments: [String]) throws(CommandError) -> CommandOutput {
        try ExternalCommand.run(command(arguments))
    }

    /// `ip -n NAME …`: an iproute2 command applied to this namespace.
    @discardableResult
    public func ip(_ arguments: [String]) throws(CommandError) -> CommandOutput {
        try ExternalCommand.run(["ip", "-n", name] + arguments)
    }

    /// Removes the namespace; interfaces in it go with it. Safe to call twice.
    public func delete() {
        guard !deleted else { return }
        deleted = true
        _ = try? ExternalCommand.run(["ip", "netns", "delete", name])
    }

    deinit { delete() }
}
