import Shared

/// Why the history could not answer: what the store said, or a flow it does not hold. Never turned
/// into an empty list.
package enum HistoryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store could not be read (its own words).
    case unreadable(String)
    /// No flow has this id (deleted by retention or `storage clear`, or never recorded).
    case unknownFlow(Int64)

    package init(_ error: StoreError) {
        self = .unreadable(error.description)
    }

    /// `error` as the history's: itself, the store's words, or its description.
    static func of(_ error: any Error) -> HistoryError {
        if let error = error as? HistoryError { return error }
        if let error = error as? StoreError { return HistoryError(error) }
        return .unreadable("\(error)")
    }

    package var description: String {
        switch self {
        case let .unreadable(reason): "the history could not be read: \(reason)"
        case let .unknownFlow(id): "no connection \(id) in the history (see 'tunnelvision flows' for the ids it holds)"
        }
    }
}
