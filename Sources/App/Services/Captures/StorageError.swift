/// Why the storage manager could not act at all.
public enum StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The captures folder could not be found or listed, so nothing was deleted — not even history
    /// rows, since without the listing nobody can say which file is being recorded. Check the
    /// data directory's permissions (the reason names the path), then try again.
    case capturesUnavailable(String)

    public var description: String {
        switch self {
        case .capturesUnavailable(let reason): "the captures cannot be listed, so nothing was deleted: \(reason)"
        }
    }
}
