#if canImport(Glibc)
import Glibc
#endif

/// What `lstat(2)` says of a path, as the trust checks need it: the link itself, never what it
/// points to.
public struct PathStatus: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case directory, symbolicLink, regularFile, socket, other }

    public let kind: Kind
    /// Permission bits with the sticky bit (`st_mode & 0o7777`).
    public let mode: mode_t
    public let owner: uid_t

    public init(kind: Kind, mode: mode_t, owner: uid_t) {
        self.kind = kind
        self.mode = mode
        self.owner = owner
    }

    /// The path's own status; nil with `errno` set when it cannot be looked at (ENOENT: absent).
    public static func of(_ path: String) -> PathStatus? {
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
