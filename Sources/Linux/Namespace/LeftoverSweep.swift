#if canImport(Glibc)
import Glibc
#endif
import Shared

/// What a killed run leaves behind and the next start removes, decided from what exists: its
/// namespace and that namespace's /etc/netns/NAME/ folder (named for a creator that is gone),
/// a control socket nobody answers, and whatever stale files the caller names (the live-feed
/// ring's, found by the ring's own code). A namespace whose creator still lives is another run's
/// and is kept, as is a control socket that answers. Pure: the findings and who lives are inputs.
package struct LeftoverSweep: Sendable, Equatable {
    /// The state of the file at the control socket's path.
    package enum ControlSocket: Sendable, Equatable {
        case absent
        /// A tunnel answers there: a live run's, kept.
        case answering
        /// A socket file nobody listens on: a killed tunnel's.
        case unanswered
        /// A symbolic link: refused, never followed or replaced in silence.
        case symbolicLink
        /// Something else (a file, a FIFO): the control server replaces it when it binds.
        case other
    }

    /// What exists now.
    package struct Findings: Sendable, Equatable {
        /// Every named network namespace (`ip netns list`).
        package var namespaces: [String]
        /// The entries of /etc/netns.
        package var resolvConfDirectories: [String]
        package var controlSocketPath: String
        package var controlSocket: ControlSocket
        /// Stale files found by their owners' code (the ring's), as paths.
        package var staleFiles: [String]

        package init(namespaces: [String], resolvConfDirectories: [String], controlSocketPath: String,
                     controlSocket: ControlSocket, staleFiles: [String] = []) {
            self.namespaces = namespaces
            self.resolvConfDirectories = resolvConfDirectories
            self.controlSocketPath = controlSocketPath
            self.controlSocket = controlSocket
            self.staleFiles = staleFiles
        }
    }

    /// One thing to remove, as the notice names it.
    package enum Leftover: Sendable, Hashable, CustomStringConvertible {
        case namespace(String)
        /// /etc/netns/NAME (its path).
        case resolvConfDirectory(String)
        /// The socket file at this path.
        case controlSocket(String)
        case staleFile(String)

        package var description: String {
            switch self {
            case let .namespace(name): "namespace \(name)"
            case let .resolvConfDirectory(path), let .staleFile(path): path
            case .controlSocket: "a stale control socket"
            }
        }
    }

    /// What to remove, in this order.
    package let leftovers: [Leftover]
    /// Why the run must not start (a link at the control socket's path); nil when it may.
    package let refusal: DirectoryError?

    /// The sweep of `findings` for namespaces named `prefix-PID-N` (`NamespaceName`).
    package static func plan(_ findings: Findings, prefix: String, isAlive: (pid_t) -> Bool) -> LeftoverSweep {
        func abandoned(_ name: String) -> Bool {
            guard let creator = NamespaceName.creator(of: name, prefix: prefix) else { return false }
            return !isAlive(creator)
        }
        var leftovers = findings.namespaces.filter(abandoned).map(Leftover.namespace)
        leftovers += findings.resolvConfDirectories.filter(abandoned).sorted()
            .map { .resolvConfDirectory("\(NamespaceResolvConf.parent)/\($0)") }
        if findings.controlSocket == .unanswered { leftovers.append(.controlSocket(findings.controlSocketPath)) }
        leftovers += findings.staleFiles.map(Leftover.staleFile)
        let refusal = findings.controlSocket == .symbolicLink
            ? DirectoryError(path: findings.controlSocketPath, problem: .symbolicLink) : nil
        return LeftoverSweep(leftovers: leftovers, refusal: refusal)
    }

    /// The one line the next run prints: what was removed, and what could not be (with why);
    /// nil when nothing was left behind.
    package static func notice(removed: [Leftover], failed: [(Leftover, String)]) -> String? {
        guard !removed.isEmpty || !failed.isEmpty else { return nil }
        var parts: [String] = []
        if !removed.isEmpty { parts.append("removed " + removed.map(\.description).joined(separator: ", ")) }
        if !failed.isEmpty {
            parts.append("could not remove " + failed.map { "\($0.0) (\($0.1))" }.joined(separator: ", "))
        }
        return "recovered from an unclean stop: " + parts.joined(separator: "; ")
    }
}
