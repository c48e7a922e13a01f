import Foundation
import Shared

/// Where a person finds the history a run left, said where they might look for it: a run through
/// sudo writes into root's data directory, and the same person's later `tunnelvision flows`
/// without sudo reads their own, which is empty.
package enum HistoryWhereabouts {
    /// The command that lists the history in `dataDirectory`, typed by the person who started the
    /// run: `isRoot` is whether the run was root, `viaSudo` whether a person started it through
    /// sudo (SUDO_USER set) — then they read it through sudo too. The directory is named unless it
    /// is where that reader looks by default.
    package static func readingCommand(dataDirectory: URL, isRoot: Bool, viaSudo: Bool) -> String {
        let path = dataDirectory.standardizedFileURL.path
        let prefix = isRoot && viaSudo ? "sudo " : ""
        let option = isRoot && path == DataDirectory.systemPath ? "" : " --data-dir \(path)"
        return "\(prefix)tunnelvision flows\(option)"
    }

    /// What to add to "there is no history here" for someone who is not root: root's history,
    /// where `sudo tunnelvision run` wrote, needs sudo to read.
    package static func missingHistoryHint(dataDirectory: URL, isRoot: Bool, usedDefault: Bool) -> String? {
        guard !isRoot, usedDefault else { return nil }
        return "a run through sudo keeps its history in \(DataDirectory.systemPath): read it with 'sudo tunnelvision flows'"
    }
}
