#if canImport(Glibc)
import Glibc
#endif

/// The history's file as bytes on disk, looked at before SQLite is allowed near it: a file that
/// is not SQLite's is refused without a single write.
enum DatabaseFile {
    /// Every SQLite database begins with these 16 bytes (fileformat2.html §1.3).
    static let magic = Array("SQLite format 3\0".utf8)

    enum State: Equatable {
        /// No bytes yet, and no WAL content: a new history (the file now exists, mode 0600).
        case empty
        /// SQLite's header, or an empty main file with WAL content: ask SQLite whose it is.
        case sqlite
        /// Bytes that do not begin with SQLite's header.
        case notSQLite
    }

    /// Creates the file owner-only when missing (SQLite would create it 0644), then classifies it.
    /// A symbolic link at the file or a sidecar is refused, never followed: SQLite would create
    /// the sidecars, and root would write the history, wherever it points.
    static func prepare(_ path: String) throws(StoreError) -> State {
        for file in paths(of: path) where PathStatus.of(file)?.kind == .symbolicLink {
            throw failure(file, ELOOP)
        }
        let created = open(path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if created >= 0 {
            close(created)
            return .empty
        }
        guard errno == EEXIST else { throw failure(path, errno) }
        // O_NONBLOCK: a FIFO planted here must not hang the open; it is refused below.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { throw failure(path, errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(path, errno) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .openFailed(path: path, message: "it is not a regular file (remove it)") }
        var header = [UInt8](repeating: 0, count: magic.count)
        let count = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { throw failure(path, errno) }
        if count == 0 { return size(of: path + "-wal") > 0 ? .sqlite : .empty }
        return count == magic.count && header == magic ? .sqlite : .notSQLite
    }

    /// Why the file at `path` is not whole by its header (`DatabaseHeader.damage`); nil when it
    /// may be. Reads, never writes.
    static func damage(_ path: String) throws(StoreError) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { throw failure(path, errno) }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: DatabaseHeader.byteCount)
        let count = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { throw failure(path, errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(path, errno) }
        return DatabaseHeader.damage(header: Array(header[..<count]), fileSize: Int64(status.st_size),
                                     walHasContent: hasWALContent(path))
    }

    /// The WAL holds frames not yet copied into the main file: reading the main file alone
    /// could see an older header.
    static func hasWALContent(_ path: String) -> Bool { size(of: path + "-wal") > 0 }

    /// The main file and the WAL sidecars SQLite keeps beside it.
    static func paths(of path: String) -> [String] { [path, path + "-wal", path + "-shm"] }

    /// Bytes in the file at `path`; 0 when it does not exist.
    static func size(of path: String) -> Int64 {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : 0
    }

    private static func failure(_ path: String, _ code: Int32) -> StoreError {
        .openFailed(path: path, message: SystemError.text(openingWithoutFollowing: code))
    }
}
