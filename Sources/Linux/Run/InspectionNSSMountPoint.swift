#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// The mount point `<home>/.pki/nssdb` shared by every run that gives one home's NSS readers the
/// run's root. Runs as the same user share the home, so one run's end must never take the
/// directory from under another: removing a directory that is a mount point in another mount
/// namespace succeeds on Linux (3.18 and later) and lazily unmounts it there, so the other run's
/// command would lose its database mid-run and refuse every leaf.
///
/// Each run holds the directory open with a shared `flock` for as long as it lasts (`hold`). A
/// run removing what it made takes the lock exclusively, without waiting: when another run holds
/// it, the removal is left in a record beside the trust directories (`recordPending`), and every
/// run's end and start retries what such records name (`sweepPending`) — so the last run out
/// removes what the first one made. What a run removes is only ever the empty directories the
/// plan makes (`InspectionNSSPlan.databaseComponents`), below the home a record of ours names.
package enum InspectionNSSMountPoint {
    /// A record of a removal another run's hold put off: `tunnelvision-nss-pending-XXXXXX`.
    package static let pendingPrefix = "tunnelvision-nss-pending-"

    /// What was made in a home, relative to it, outer first: a trust directory's record of what
    /// its run made, and a pending removal's.
    package struct Manifest: Codable, Equatable, Sendable {
        package let home: String
        package let created: [String]
        package init(home: String, created: [String]) {
            self.home = home
            self.created = created
        }
    }

    package enum Hold: Equatable {
        /// The directory, open with a shared lock; closing it lets go.
        case held(Int32)
        /// It was removed between being made and being opened: make it again.
        case vanished
        /// The lock cannot be had here (a filesystem without flock): the run goes on without it.
        case unavailable
    }

    /// Opens the mount point below `home` and takes a shared lock on it, waiting while another
    /// run's end holds it exclusively for the moment of its removal.
    package static func hold(home: String) -> Hold {
        let descriptor = PathBeneath.open(home, InspectionNSSPlan.databaseComponents)
        guard descriptor >= 0 else { return errno == ENOENT ? .vanished : .unavailable }
        var locked: Int32
        repeat { locked = flock(descriptor, LOCK_SH) } while locked != 0 && errno == EINTR
        var status = stat()
        guard locked == 0, fstat(descriptor, &status) == 0 else {
            close(descriptor)
            return .unavailable
        }
        // Removed while this run waited for the lock: a directory gone has no links left.
        guard status.st_nlink > 0 else {
            close(descriptor)
            return .vanished
        }
        return .held(descriptor)
    }

    /// Removes `created` below `home`, innermost first, each only while empty — unless another
    /// run holds the mount point, which it then leaves. False: left for another run.
    package static func removeUnlessHeld(home: String, _ created: [String]) -> Bool {
        let planned = InspectionNSSPlan.databaseComponents.indices.map {
            InspectionNSSPlan.databaseComponents[...$0].joined(separator: "/")
        }
        let removable = created.filter(planned.contains)
        guard !removable.isEmpty else { return true }
        let mountPoint = PathBeneath.open(home, InspectionNSSPlan.databaseComponents)
        if mountPoint >= 0 {
            defer { close(mountPoint) }
            if flock(mountPoint, LOCK_EX | LOCK_NB) != 0, errno == EWOULDBLOCK { return false }
            remove(home: home, removable)   // under the exclusive lock: no run can take hold meanwhile
        } else {
            remove(home: home, removable)   // the mount point is gone already; what is left above it
        }
        return true
    }

    private static func remove(home: String, _ created: [String]) {
        for path in created.reversed() {
            var components = path.split(separator: "/").map(String.init)
            guard let name = components.popLast() else { continue }
            let parent = PathBeneath.open(home, components)
            guard parent >= 0 else { continue }
            unlinkat(parent, name, AT_REMOVEDIR)   // ENOTEMPTY: someone else's now, kept
            close(parent)
        }
    }

    /// Leaves a removal another run's hold put off in `parent`, for `sweepPending`.
    package static func recordPending(_ manifest: Manifest, in parent: String) {
        guard let bytes = try? JSONEncoder().encode(manifest) else { return }
        var template = Array("\(parent)/\(pendingPrefix)XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = bytes.withUnsafeBytes { FileDescriptor.writeAll(descriptor, $0) }
    }

    /// Carries out every pending removal in `parent` no run holds off any more, and deletes its
    /// record; the others wait for the next run's end or start.
    package static func sweepPending(parent: String) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return }
        for entry in entries.sorted() where entry.hasPrefix(pendingPrefix) {
            let path = parent + "/" + entry
            guard let manifest = readManifest(path) else { continue }
            if removeUnlessHeld(home: manifest.home, manifest.created) { unlink(path) }
        }
    }

    /// A record of ours: a plain file this user owns, with one link (`parent` may be a shared
    /// /tmp and a trust directory belongs to CMD's user, either of whom could plant another).
    package static func readManifest(_ path: String) -> Manifest? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid(), status.st_nlink == 1,
              let bytes = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(Manifest.self, from: bytes)
    }
}
