#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// What CMD's home holds where NSS readers look, seen as it is: the home (links followed — the
/// administrator's path), then `.pki` and `.pki/nssdb` as far as they exist (a link is seen as a
/// link, never followed), and the database directory's entries. Read only; what `run` then does
/// there looks again through `PathBeneath`, so a change in between cannot lead it elsewhere.
package struct InspectionNSSHome: Sendable, Equatable {
    package let path: String
    /// The home itself; nil when it does not exist.
    package let status: PathStatus?
    /// `InspectionNSSPlan.databaseComponents` from the home down, up to the first that is missing
    /// (left off) or no directory (the last one listed).
    package let along: [PathStatus]
    /// The database directory's entries, when it is one.
    package let databaseEntries: [String: PathStatus]

    package init(path: String, status: PathStatus?, along: [PathStatus], databaseEntries: [String: PathStatus] = [:]) {
        self.path = path
        self.status = status
        self.along = along
        self.databaseEntries = databaseEntries
    }

    package static func survey(_ path: String) -> InspectionNSSHome {
        let status = realpath(path, nil).flatMap { resolved in
            defer { free(resolved) }
            return PathStatus.of(String(cString: resolved))
        }
        guard status?.kind == .directory else { return InspectionNSSHome(path: path, status: status, along: []) }
        var along: [PathStatus] = [], walked = path
        for component in InspectionNSSPlan.databaseComponents {
            walked += "/" + component
            guard let entry = PathStatus.of(walked) else { break }
            along.append(entry)
            if entry.kind != .directory { break }
        }
        var entries: [String: PathStatus] = [:]
        if along.count == InspectionNSSPlan.databaseComponents.count, along.last?.kind == .directory {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: walked)) ?? [] {
                if let entry = PathStatus.of(walked + "/" + name) { entries[name] = entry }
            }
        }
        return InspectionNSSHome(path: path, status: status, along: along, databaseEntries: entries)
    }
}
