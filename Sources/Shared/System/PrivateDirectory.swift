#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Directories that hold what the person captured: created owner-only, because packets, history
/// and keys are private.
package enum PrivateDirectory {
    /// Creates `directory` and missing parents with mode 0700; an existing directory is kept as is.
    /// A symbolic link where the directory should be is refused, not followed (its parents may be
    /// links: `/var` or a home directory often is).
    package static func create(_ directory: URL) throws(DirectoryError) {
        let path = directory.path
        if mkdir(path, 0o700) == 0 { return }
        let failure = errno
        if failure == EEXIST {
            switch PathStatus.of(path)?.kind {
            case .directory: return
            case .symbolicLink: throw DirectoryError(path: path, problem: .symbolicLink)
            default: throw DirectoryError(path: path, errno: ENOTDIR)
            }
        }
        let parent = directory.deletingLastPathComponent()
        guard failure == ENOENT, parent.path != path else { throw DirectoryError(path: path, errno: failure) }
        try create(parent)
        if mkdir(path, 0o700) != 0 && errno != EEXIST { throw DirectoryError(path: path, errno: errno) }
    }
}
