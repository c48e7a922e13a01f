#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Directories that hold what the person captured: created owner-only, because packets, history
/// and keys are private.
public enum PrivateDirectory {
    /// Creates `directory` and missing parents with mode 0700; an existing directory is kept as is.
    public static func create(_ directory: URL) throws(DirectoryError) {
        let path = directory.path
        if mkdir(path, 0o700) == 0 { return }
        let failure = errno
        if failure == EEXIST {
            var status = stat()
            if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { return }
            throw DirectoryError(path: path, errno: ENOTDIR)
        }
        let parent = directory.deletingLastPathComponent()
        guard failure == ENOENT, parent.path != path else { throw DirectoryError(path: path, errno: failure) }
        try create(parent)
        if mkdir(path, 0o700) != 0 && errno != EEXIST { throw DirectoryError(path: path, errno: errno) }
    }
}

/// A directory could not be listed or created.
public struct DirectoryError: Error, Sendable, Hashable, CustomStringConvertible {
    public let path: String
    public let errno: Int32

    public init(path: String, errno: Int32) {
        self.path = path
        self.errno = errno
    }

    public var description: String { "\(path): \(SystemError.text(errno))" }
}
