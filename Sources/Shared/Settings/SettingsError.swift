/// Why the settings could not be read or written. Neither stops a tunnel: it falls back to the
/// factory settings and reports the problem (`SettingsStore.loadForSession()`); the command shows
/// it to the person, who is the one able to act.
public enum SettingsError: Error, Sendable, Equatable {
    /// What is stored is not a JSON object (the reason says how). Tell the person and leave the
    /// file alone; the next save replaces it. Never rewrite it on a read: it holds their choices.
    case corruptData(path: String, reason: String)
    /// The store cannot be reached — its directory is not a directory, permission is denied, the
    /// disk failed. Distinct from "nothing stored", which is a fresh install and not an error.
    case storeUnavailable(path: String, reason: String)
}

extension SettingsError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .corruptData(path, reason): "\(path) does not hold valid settings: \(reason)"
        case let .storeUnavailable(path, reason): "cannot reach the settings at \(path): \(reason)"
        }
    }
}
