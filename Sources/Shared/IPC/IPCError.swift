#if canImport(Glibc)
import Glibc
#endif

/// Why the live feed could not be opened. Each case says what the caller can do about it.
package enum IPCError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The data directory could not be created or reached: check `--data-dir` and permissions.
    case dataDirectoryUnavailable(path: String, errno: Int32)
    /// The ring file (or its lock file) could not be opened or created.
    case openFailed(path: String, errno: Int32)
    /// Mapping the file failed (`mmap`), e.g. no address space or memory.
    case mapFailed(path: String, errno: Int32)
    /// The ring's `bytes` could not be allocated in `directory` (`posix_fallocate`; ENOSPC is a
    /// full disk). Nothing is left behind: free space there or choose another `--data-dir`.
    case cannotReserve(directory: String, bytes: Int, errno: Int32)
    /// The ring or its lock at `path` is a symbolic link. Nothing was opened or created through
    /// it: remove it (the tunnel makes its own files) and look into who planted it.
    case symbolicLink(path: String)
    /// The file is not a ring this build understands (magic, version or geometry); the consumer
    /// should wait for the tunnel to start a session, which writes a fresh one.
    case badHeader(path: String, reason: String)
    /// The producer was asked for a geometry the spec forbids (slot count not a power of two,
    /// slot smaller than a record, or a file too large to map).
    case badGeometry(String)
    /// Another producer holds this ring: two tunnels must not feed one single-producer ring.
    case ringInUse(path: String)
    /// Another reader follows this ring (`tunnelvision live`, or `ui`'s Dashboard): it has one
    /// reader at a time, or each would see part of the traffic. It is free when that one stops.
    case readerInUse(path: String)

    package var description: String {
        switch self {
        case .dataDirectoryUnavailable(let path, let code): "\(path): \(SystemError.text(code))"
        case .openFailed(let path, let code): "cannot open the live-feed ring \(path): \(SystemError.text(code))"
        case .mapFailed(let path, let code): "cannot map the live-feed ring \(path): \(SystemError.text(code))"
        case .cannotReserve(let directory, let bytes, let code):
            "cannot reserve the live-feed ring's \(ByteCountText.binary(UInt64(bytes))) in \(directory): \(SystemError.text(code)) "
                + (code == ENOSPC || code == EDQUOT ? "(free some space or choose another --data-dir)" : "(choose another --data-dir)")
        case .symbolicLink(let path): "\(path) is a symbolic link; refusing to follow it (remove it: the tunnel makes its own)"
        case .badHeader(let path, let reason): "\(path) is not a live-feed ring this build reads: \(reason)"
        case .badGeometry(let reason): "invalid ring geometry: \(reason)"
        case .ringInUse(let path): "another tunnel is feeding \(path)"
        case .readerInUse(let path):
            "another reader is following \(path) (a 'tunnelvision live', or the Dashboard of a 'tunnelvision ui'); "
                + "the live feed has one reader at a time: stop that one, or look there"
        }
    }
}
