/// Why the live feed could not be opened. Each case says what the caller can do about it.
public enum IPCError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The data directory could not be created or reached: check `--data-dir` and permissions.
    case dataDirectoryUnavailable(path: String, errno: Int32)
    /// The ring file (or its lock file) could not be opened or created.
    case openFailed(path: String, errno: Int32)
    /// Sizing or mapping the file failed (`ftruncate`/`mmap`), e.g. no space or memory.
    case mapFailed(path: String, errno: Int32)
    /// The file is not a ring this build understands (magic, version or geometry); the consumer
    /// should wait for the tunnel to start a session, which writes a fresh one.
    case badHeader(path: String, reason: String)
    /// The producer was asked for a geometry the spec forbids (slot count not a power of two,
    /// slot smaller than a record, or a file too large to map).
    case badGeometry(String)
    /// Another producer holds this ring: two tunnels must not feed one single-producer ring.
    case ringInUse(path: String)

    public var description: String {
        switch self {
        case .dataDirectoryUnavailable(let path, let code): "\(path): \(SystemError.text(code))"
        case .openFailed(let path, let code): "cannot open the live-feed ring \(path): \(SystemError.text(code))"
        case .mapFailed(let path, let code): "cannot map the live-feed ring \(path): \(SystemError.text(code))"
        case .badHeader(let path, let reason): "\(path) is not a live-feed ring this build reads: \(reason)"
        case .badGeometry(let reason): "invalid ring geometry: \(reason)"
        case .ringInUse(let path): "another tunnel is feeding \(path)"
        }
    }
}
