#if canImport(Glibc)
import Glibc
#endif

/// Whether a data directory may be trusted with what root writes and reads there, as OpenSSH's
/// StrictModes trusts a `~/.ssh`: the directory itself is a real directory (not a symbolic link),
/// owned by the user the tunnel runs as and writable by nobody else; each parent up to `/` is
/// owned by that user or root and writable by nobody else unless sticky (`/tmp`: only an
/// entry's owner may rename or remove it). Otherwise another user could plant links or swap
/// files. Pure: the statuses are inputs.
package enum DataDirectoryTrust {
    /// Who uses the directory: the tunnel writes (root, usually) and must own it; a reader may
    /// also read one root owns.
    package enum Access: Sendable, Hashable { case write, read }

    /// nil when `path` can be trusted; otherwise the first problem, with its fix.
    /// `parents` run from the nearest to `/`, each resolved (no symbolic links among them).
    package static func refusal(of path: String, status: PathStatus, parents: [(path: String, status: PathStatus)],
                               user: uid_t, userName: String, access: Access) -> DirectoryError? {
        switch status.kind {
        case .directory: break
        case .symbolicLink: return DirectoryError(path: path, problem: .symbolicLink)
        default: return DirectoryError(path: path, errno: ENOTDIR)
        }
        let owners: Set<uid_t> = access == .write ? [user] : [user, 0]
        if !owners.contains(status.owner) {
            return DirectoryError(path: path, problem: .ownedByAnother(owner: status.owner, user: user, userName: userName))
        }
        if status.mode & 0o022 != 0 { return DirectoryError(path: path, problem: .writableByOthers(mode: status.mode)) }
        for parent in parents {
            if parent.status.owner != user && parent.status.owner != 0 {
                return DirectoryError(path: parent.path, problem: .ownedByAnother(owner: parent.status.owner, user: user,
                                                                                  userName: userName), parentOf: path)
            }
            if parent.status.mode & 0o022 != 0 && parent.status.mode & mode_t(S_ISVTX) == 0 {
                return DirectoryError(path: parent.path, problem: .writableByOthers(mode: parent.status.mode), parentOf: path)
            }
        }
        return nil
    }

    /// `path`'s ancestors, nearest first, ending with `/`: the input `refusal` expects.
    package static func ancestors(of path: String) -> [String] {
        var components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var result: [String] = []
        while !components.isEmpty {
            components.removeLast()
            result.append("/" + components.joined(separator: "/"))
        }
        return result
    }
}
