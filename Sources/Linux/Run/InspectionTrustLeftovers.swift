#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// The name of a run's private trust directory, and the sweep of those a killed run left:
/// `tunnelvision-trust-PID-XXXXXX` in the temporary directory, the creator's pid in the name as
/// for the namespaces (`NamespaceName`), so a directory whose creator is dead is recognisably
/// left over — and one whose creator lives is another run's, kept.
package enum InspectionTrustLeftovers {
    static let prefix = "tunnelvision-trust-"

    /// Where the directory is made: `$TMPDIR`, else /tmp.
    package static func parent(environment: [String: String]) -> String {
        environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    /// The mkdtemp template for a directory of this process in `parent`.
    static func template(in parent: String) -> String {
        "\(parent)/\(prefix)\(getpid())-XXXXXX"
    }

    /// The pid in an entry's name, if it is one of ours (old names without a pid are not).
    static func creator(of entry: String) -> pid_t? {
        guard entry.hasPrefix(prefix) else { return nil }
        let parts = entry.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 6, let pid = pid_t(parts[0]), pid > 0 else { return nil }
        return pid
    }

    /// The entries among `entries` a dead creator left. Pure.
    static func abandoned(_ entries: [String], isAlive: (pid_t) -> Bool) -> [String] {
        entries.filter { entry in creator(of: entry).map { !isAlive($0) } ?? false }.sorted()
    }

    /// Removes what killed runs left in `parent` — and the empty directories each made in a home
    /// for its NSS database, with those an ended run left to a run still using them
    /// (`InspectionNSSMountPoint`); the trust directories removed, for the run's one notice. Whatever cannot be
    /// removed is left as it is: it holds public certificates and at most a copy of CMD's user's
    /// own NSS database, in a directory only that user can enter.
    package static func sweep(parent: String) -> [String] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return [] }
        defer { InspectionNSSMountPoint.sweepPending(parent: parent) }
        return abandoned(entries, isAlive: LeftoverSweeper.isAlive).compactMap { entry in
            let path = parent + "/" + entry
            guard PathStatus.of(path)?.kind == .directory else { return nil }   // never follow a link planted there
            InspectionNSSDatabase.sweepCreated(trustDirectory: path)
            do { try FileManager.default.removeItem(atPath: path) } catch { return nil }
            return path
        }
    }
}
