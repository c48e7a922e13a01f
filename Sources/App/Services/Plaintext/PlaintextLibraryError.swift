/// Why one decrypted chunk could not be read back. Never turned into empty bytes.
package enum PlaintextLibraryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The directory could not be found or read.
    case containerUnavailable(String)
    /// No file with this sequence: it expired or was deleted (normal: decrypted content is kept
    /// for less time than the history).
    case notFound(UInt32)
    /// The record there belongs to another conversation, or its lengths disagree with the index.
    case recordMismatch(String)
    /// The file is there and the record in it cannot be read (not a record start, cut short,
    /// claiming more than the file allows, a foreign file).
    case recordUnreadable(String)

    package var description: String {
        switch self {
        case let .containerUnavailable(reason): "the decrypted content cannot be read: \(reason)"
        case let .notFound(sequence): "decrypted-content file \(sequence) is gone (it expired or was deleted)"
        case let .recordMismatch(reason): "the decrypted-content record is not the one the history names: \(reason)"
        case let .recordUnreadable(reason): "the decrypted-content record cannot be read: \(reason)"
        }
    }
}
