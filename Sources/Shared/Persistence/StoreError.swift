/// Why the history could not do what it was asked. Each case's comment says what the caller
/// should do. Refusals (`notADatabase`, `foreignDatabase`, `newerSchema`) leave the file exactly
/// as it was.
public enum StoreError: Error, Sendable, Hashable {
    /// The file at `path` is not a SQLite database. Nothing was changed: tell the person, and
    /// point the store at another path; never delete or overwrite the file on their behalf.
    case notADatabase(path: String)
    /// The file at `path` is a SQLite database made by another program (its tables are not ours).
    /// Nothing was changed: tell the person and use another path.
    case foreignDatabase(path: String)
    /// The database was written by a newer TunnelVision (`found` > `supported`). Nothing was
    /// changed: run the newer build, or move the file aside to start a new history.
    case newerSchema(found: Int, supported: Int)
    /// The file could not be created or opened (permissions, a missing directory, a lock held past
    /// the busy timeout). Report `message`; retrying after fixing the cause is safe.
    case openFailed(path: String, message: String)
    /// Migrating to schema `version` failed and was rolled back; the file is at the version before
    /// it. Report `message`; do not write to this file with this build.
    case migrationFailed(version: Int, message: String)
    /// A statement failed (disk full, I/O error, a lock held past the busy timeout). A write that
    /// fails is rolled back whole, so retrying the same batch later is safe.
    case queryFailed(String)
    /// A stored row cannot be read back as a valid value (the text says which and why). Report it;
    /// other rows are unaffected, and pruning or clearing the history removes it.
    case corruptRow(String)
    /// The store was closed. Open a new one.
    case closed
}

extension StoreError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .notADatabase(path): "\(path) is not a SQLite database; it was left untouched"
        case let .foreignDatabase(path): "\(path) is another program's database; it was left untouched"
        case let .newerSchema(found, supported):
            "the history was written by a newer TunnelVision (schema \(found); this build knows up to \(supported)); it was left untouched"
        case let .openFailed(path, message): "cannot open the history at \(path): \(message)"
        case let .migrationFailed(version, message): "cannot update the history to schema \(version): \(message)"
        case let .queryFailed(message): "the history could not be read or written: \(message)"
        case let .corruptRow(detail): "a stored row is damaged: \(detail)"
        case .closed: "the history is closed"
        }
    }
}
