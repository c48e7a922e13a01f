/// Why the settings could not be read or written. A session falls back to the factory settings
/// and reports the problem (`SettingsStore.loadForSession()`); but since the factory settings
/// capture every packet in full, `run` starts on them only when told what to capture
/// (`--no-capture`). The command shows the problem to the person, who is the one able to act.
package enum SettingsError: Error, Sendable, Equatable {
    /// What is stored is not a JSON object of settings this build knows, with values of their
    /// types (the reason says which field, and how). Tell the person and leave the file alone: it
    /// holds their choices, and perhaps a newer build's. Never save over it; the person edits it,
    /// or sets it aside (`settings set --force`) to start from the factory settings.
    case corruptData(path: String, reason: String)
    /// The store cannot be reached — its directory is not a directory, permission is denied, the
    /// disk failed. Distinct from "nothing stored", which is a fresh install and not an error.
    case storeUnavailable(path: String, reason: String)
}

extension SettingsError: CustomStringConvertible {
    package var description: String {
        switch self {
        case let .corruptData(path, reason): "\(path) does not hold valid settings: \(reason)"
        case let .storeUnavailable(path, reason): "cannot reach the settings at \(path): \(reason)"
        }
    }
}
