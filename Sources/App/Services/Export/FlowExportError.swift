import Shared

/// Why an export did not happen. In every case nothing was left behind and an earlier export is as
/// it was.
package enum FlowExportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The history could not be read (its own words); try again once it opens.
    case historyUnreadable(HistoryError)
    /// The file could not be written (the system's words): choose another place, or make room.
    case writeFailed(String)
    /// The destination holds a file that is not an earlier export; it was left untouched. Choose
    /// another file, or ask for it to be replaced on purpose.
    case foreignFile(path: String)

    package var description: String {
        switch self {
        case let .historyUnreadable(error): "nothing exported: \(error)"
        case let .writeFailed(reason): "nothing exported: \(reason)"
        case let .foreignFile(path):
            "nothing exported: \(path) is not an earlier export of connections, so it was left as it is"
        }
    }

    /// What a page provider threw, as the history's failure.
    static func history(_ error: any Error) -> FlowExportError {
        switch error {
        case let error as HistoryError: .historyUnreadable(error)
        case let error as StoreError: .historyUnreadable(HistoryError(error))
        case let error as FlowExportError: error
        default: .historyUnreadable(.unreadable("\(error)"))
        }
    }
}
