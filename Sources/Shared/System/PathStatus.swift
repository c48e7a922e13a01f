#if canImport(Glibc)
import Glibc
#endif

/// What `lstat(2)` says of a path, as the trust checks need it: the link itself, never what it
/// points to.
package struct PathStatus: Sendable, Hashable {
    package enum Kind: Sendable, Hashable { case directory, symbolicLink, regularFile, socket, other }

    package let kind: Kind
    /// Permission bits with the sticky bit (`st_mode & 0o7777`).
    package let mode: mode_t
    package let owner: uid_t

    package init(kind: Kind, mode: mode_t, owner: uid_t) {
        self.kind = kind
        self.mode = mode
        self.owner = owner
    }

    /// The path's own status; nil with `errno` set when it cannot be looked at (ENOENT: absent).
    package static func of(_ path: String) -> PathStatus? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        let kind: Kind = switch status.st_mode & S_IFMT {
        case S_IFDIR: .directory
        case S_IFLNK: .symbolicLink
        case S_IFREG: .regularFile
        case S_IFSOCK: .socket
        default: .other
        }
        return PathStatus(kind: kind, mode: status.st_mode & 0o7777, owner: status.st_uid)
    }
}
