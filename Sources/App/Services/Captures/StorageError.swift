/// Why the storage manager could not act at all.
package enum StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The captures folder could not be found or listed, so nothing was deleted — not even history
    /// rows, since without the listing nobody can say which file is being recorded. Check the
    /// data directory's permissions (the reason names the path), then try again.
    case capturesUnavailable(String)
    /// Deleting everything would delete audit evidence: this many of the history's connections
    /// belong to an audit session (open or ended), and nothing was deleted. Say so to the person
    /// and, once they agree, clear again including the evidence.
    case clearingWouldDeleteEvidence(connections: Int)
    /// Whether deleting everything would delete audit evidence could not be read (the history
    /// would not open or answer; why), so nothing was deleted. The same remedy as above.
    case clearingEvidenceUnknown(String)

    package var description: String {
        switch self {
        case .capturesUnavailable(let reason): "the captures cannot be listed, so nothing was deleted: \(reason)"
        case .clearingWouldDeleteEvidence(let connections):
            "deleting everything would delete \(connections == 1 ? "1 connection" : "\(connections) connections") of audit evidence, "
                + "so nothing was deleted"
        case .clearingEvidenceUnknown(let reason):
            "whether deleting everything would delete audit evidence cannot be read (\(reason)), so nothing was deleted"
        }
    }
}
