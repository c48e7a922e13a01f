#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// Opening the history a reading command reads: the data directory from `--data-dir`, the
/// environment or the user; refused unless it can be trusted; and never created — a command that
/// reads says there is no history rather than make an empty one.
package enum HistoryAccess {
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let description: String
        /// There is no history there yet (rather than one that cannot be read).
        var isMissing = false
    }

    package static func dataDirectory(override: String?) -> URL {
        DataDirectory.location(override: override, environment: ProcessInfo.processInfo.environment,
                               effectiveUserID: geteuid())
    }

    /// The store over the history in the data directory, for reading.
    package static func openStore(dataDirectory override: String?) throws(Failure) -> FlowStore {
        let directory = dataDirectory(override: override)
        do {
            try DataDirectory.verify(directory, access: .read)
        } catch {
            throw Failure(description: error.description)
        }
        let database = DataDirectoryLayout.database(in: directory)
        guard let status = PathStatus.of(database.path) else {
            guard errno == ENOENT else { throw Failure(description: DirectoryError(path: database.path, errno: errno).description) }
            var message = "no history in \(directory.path) yet: 'tunnelvision run -- CMD' records one"
            let usedDefault = override == nil && ProcessInfo.processInfo.environment[DataDirectory.environmentVariable] == nil
            if let hint = HistoryWhereabouts.missingHistoryHint(dataDirectory: directory, isRoot: geteuid() == 0,
                                                                usedDefault: usedDefault) {
                message += "; \(hint)"
            }
            throw Failure(description: message, isMissing: true)
        }
        if status.kind == .symbolicLink {
            throw Failure(description: DirectoryError(path: database.path, problem: .symbolicLink).description)
        }
        do {
            return try FlowStore(databaseURL: database, origin: "read")
        } catch {
            throw Failure(description: error.description)
        }
    }
}
