import Shared

/// Why no evidence bundle was exported. In every case nothing was left in the destination.
package enum EvidenceExportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No such audit session (deleted, or another history's id): pick one from the list.
    case sessionNotFound(Int64)
    /// The session is still recording: end it, then export.
    case sessionStillOpen(Int64)
    /// The project names a requirement catalogue this build does not carry: a build that carries
    /// it can export the session.
    case catalogueNotBundled(identifier: String)
    /// The catalogue this build carries is refused: a fault of this build, to be reported.
    case catalogueUnusable(identifier: String)
    /// The history could not be read (its own words): try again once it opens.
    case historyUnreadable(String)
    /// The session's connections or packets changed between two reads of the export (a tagged
    /// connection carrying on after the session ended): export again.
    case historyChangedWhileExporting
    /// The capture files could not be listed (the system's words).
    case captureDirectoryUnavailable(String)
    /// The bundle could not be written (the system's words): choose another place, or make room.
    case writeFailed(String)

    package var description: String {
        switch self {
        case let .sessionNotFound(id):
            "There is no audit session \(id), so no evidence was exported."
        case let .sessionStillOpen(id):
            "Audit session \(id) is still recording: end it before exporting its evidence."
        case let .catalogueNotBundled(identifier):
            "The project reads the requirement catalogue '\(identifier)', which this build does not carry, so no evidence was exported."
        case let .catalogueUnusable(identifier):
            "The requirement catalogue '\(identifier)' this build carries cannot be read, so no evidence was exported."
        case let .historyUnreadable(reason):
            "The history could not be read (\(reason)), so no evidence was exported."
        case .historyChangedWhileExporting:
            "The session's connections changed while its evidence was being written, so nothing was kept: export it again."
        case let .captureDirectoryUnavailable(reason):
            "The capture files could not be listed (\(reason)), so no evidence was exported."
        case let .writeFailed(reason):
            "The evidence could not be written (\(reason)); nothing was left behind."
        }
    }
}
