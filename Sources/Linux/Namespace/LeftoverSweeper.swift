#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Posix
import Shared

/// The sweep's shell: looks at what exists, removes what `LeftoverSweep` says, and returns the
/// notice for the person.
package enum LeftoverSweeper {
    /// Sweeps what killed runs of `prefix` left, and the data directory's stale control socket.
    /// `staleFiles` is the hook for other parts' leftovers (the ring's stale files, as paths).
    /// Returns the one-line notice, nil when nothing was left; throws when the control socket's
    /// path holds a symbolic link (remove it, then run again).
    package static func sweep(prefix: String, dataDirectory: URL,
                              staleFiles: () -> [String] = { [] }) throws(DirectoryError) -> String? {
        let socketPath = DataDirectoryLayout.controlSocket(in: dataDirectory).path
        let outcome = try sweep(prefix: prefix, controlSocketPath: socketPath, controlSocket: probe(socketPath),
                                staleFiles: staleFiles())
        return LeftoverSweep.notice(removed: outcome.removed, failed: outcome.failed)
    }

    /// Only the namespaces of `prefix` and their /etc/netns folders (the lab's sweep).
    static func sweepNamespaces(prefix: String) -> Outcome {
        (try? sweep(prefix: prefix, controlSocketPath: "", controlSocket: .absent, staleFiles: [])) ?? Outcome()
    }

    /// The same sweep, kept as what it removed rather than its notice, so leftovers found later
    /// by another part (the ring's stale files, swept when the session opens it) join the same
    /// one line: `outcome.notice(alsoRemoved:)`.
    static func sweepLeavingNotice(prefix: String, dataDirectory: URL) throws(DirectoryError) -> Outcome {
        let socketPath = DataDirectoryLayout.controlSocket(in: dataDirectory).path
        return try sweep(prefix: prefix, controlSocketPath: socketPath, controlSocket: probe(socketPath), staleFiles: [])
    }

    /// What was removed, and what could not be with why.
    package struct Outcome {
        var removed: [LeftoverSweep.Leftover] = []
        var failed: [(LeftoverSweep.Leftover, String)] = []

        /// The one-line notice, with `files` another part already removed; nil when nothing was left.
        package func notice(alsoRemoved files: [String]) -> String? {
            LeftoverSweep.notice(removed: removed + files.map { .staleFile($0) }, failed: failed)
        }
    }

    private static func sweep(prefix: String, controlSocketPath: String, controlSocket: LeftoverSweep.ControlSocket,
                              staleFiles: [String]) throws(DirectoryError) -> Outcome {
        let findings = LeftoverSweep.Findings(
            // Best effort, as the sweep is: a machine whose namespaces cannot be listed has none
            // of ours to sweep that `run` could make there either (it needs the same `ip`).
            namespaces: (try? NetworkNamespace.names()) ?? [],
            resolvConfDirectories: (try? FileManager.default.contentsOfDirectory(atPath: NamespaceResolvConf.parent)) ?? [],
            controlSocketPath: controlSocketPath, controlSocket: controlSocket, staleFiles: staleFiles)
        let sweep = LeftoverSweep.plan(findings, prefix: prefix, isAlive: isAlive)
        if let refusal = sweep.refusal { throw refusal }
        var outcome = Outcome()
        for leftover in sweep.leftovers {
            if let failure = remove(leftover) { outcome.failed.append((leftover, failure)) } else { outcome.removed.append(leftover) }
        }
        if outcome.removed.contains(where: { if case .resolvConfDirectory = $0 { true } else { false } }) {
            rmdir(NamespaceResolvConf.parent)   // only when empty: another namespace's folder keeps it
        }
        return outcome
    }

    /// Whether `pid` is a live process (EPERM: alive, someone else's).
    static func isAlive(_ pid: pid_t) -> Bool { kill(pid, 0) == 0 || errno == EPERM }

    /// Looks at the control socket's path without following a link, and knocks: a socket
    /// nobody listens on refuses the connection at once.
    static func probe(_ path: String) -> LeftoverSweep.ControlSocket {
        guard let status = PathStatus.of(path) else { return .absent }
        switch status.kind {
        case .symbolicLink: return .symbolicLink
        case .socket: break
        default: return .other
        }
        guard let address = UnixSocketAddress(path: path) else { return .other }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return .answering }   // cannot tell: keep it
        defer { close(descriptor) }
        let connected = address.withSockaddr { connect(descriptor, $0, $1) }
        // EAGAIN: a listener whose backlog is full is alive too.
        return connected != 0 && errno == ECONNREFUSED ? .unanswered : .answering
    }

    /// Removes one leftover; the reason when it could not.
    private static func remove(_ leftover: LeftoverSweep.Leftover) -> String? {
        switch leftover {
        // Another run's sweep may take the same leftover at the same moment: gone is removed.
        case let .namespace(name):
            do throws(CommandError) { try ExternalCommand.run(["ip", "netns", "delete", name]) } catch {
                return access("/run/netns/\(name)", F_OK) != 0 && errno == ENOENT ? nil : "\(error)"
            }
            return nil
        case let .resolvConfDirectory(path):
            do { try FileManager.default.removeItem(atPath: path) } catch {
                return access(path, F_OK) != 0 && errno == ENOENT ? nil : "\(error.localizedDescription)"
            }
            return nil
        case let .controlSocket(path), let .staleFile(path):
            return unlink(path) == 0 || errno == ENOENT ? nil : SystemError.text(errno)
        }
    }
}
