/// Why the documents of a bundle cannot be made from what was given. Each says the caller read
/// the wrong things or read while the history changed; nothing is written.
package enum EvidenceBundleRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// The session belongs to another project than the one given.
    case sessionOfAnotherProject
    /// The session is still recording: its evidence is not complete.
    case sessionStillOpen
    /// A flow given twice.
    case duplicateFlow(id: Int64)

    package var description: String {
        switch self {
        case .sessionOfAnotherProject: "the session belongs to another project than the one given"
        case .sessionStillOpen: "the session is still recording, so its evidence is not complete"
        case let .duplicateFlow(id): "flow \(id) was given twice"
        }
    }
}
