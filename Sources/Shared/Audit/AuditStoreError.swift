/// A rule of the audit store that a request broke (audit.md § Store API). What SQLite itself
/// reports stays a `StoreError`; an unreadable row is `StoreError.corruptRow`.
package enum AuditStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    case emptyProjectName
    case duplicateAllowlistPattern(String)
    case projectNotFound(Int64)
    case sessionNotFound(Int64)
    /// Another session is open: at most one records at a time. Names the one in the way.
    case sessionAlreadyOpen(Int64)
    case sessionAlreadyEnded(Int64)
    case dateBeforeSessionStart
    case emptyMarkerLabel
    /// The history could not be read or written (`StoreError` says why).
    case store(StoreError)

    package var description: String {
        switch self {
        case .emptyProjectName: "A project needs a name."
        case let .duplicateAllowlistPattern(pattern): "The allowlist names \(pattern) twice."
        case let .projectNotFound(id): "There is no audit project \(id)."
        case let .sessionNotFound(id): "There is no audit session \(id)."
        case let .sessionAlreadyOpen(id):
            "Audit session \(id) is still recording: end it first (only one session records at a time)."
        case let .sessionAlreadyEnded(id): "Audit session \(id) has already ended."
        case .dateBeforeSessionStart: "That instant is before the session started."
        case .emptyMarkerLabel: "A marker of your own needs some words."
        case let .store(error): "The history could not be used: \(error)."
        }
    }
}
