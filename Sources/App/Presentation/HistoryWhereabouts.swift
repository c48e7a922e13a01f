import Foundation
import Shared

/// Where a person finds the history a run left, said where they might look for it: a run through
/// sudo writes into root's data directory, and the same person's later `tunnelvision flows`
/// without sudo reads their own, which is empty.
public enum HistoryWhereabouts {
    /// How to read the history in `dataDirectory` again, as the one line a summary or an error
    /// ends with. `runAsRoot` is whether the run (or the reader) is root; `viaSudo` whether a
    /// person started it through sudo (SUDO_USER set).
    public static func readingHint(dataDirectory: URL, isRoot: Bool, viaSudo: Bool) -> String {
        let path = dataDirectory.standardizedFileURL.path
        let isDefaultSystem = path == DataDirectory.systemPath
        let prefix = isRoot && viaSudo ? "sudo " : ""
        let option = isDefaultSystem && isRoot ? "" : " --data-dir \(path)"
        return "read it again with: \(prefix)tunnelvision flows\(option)"
    }

    /// What to add to "there is no history here" for someone who is not root: root's history,
    /// where `sudo tunnelvision run` wrote, needs sudo to read.
    public static func missingHistoryHint(dataDirectory: URL, isRoot: Bool, usedDefault: Bool) -> String? {
        guard !isRoot, usedDefault else { return nil }
        return "a run through sudo keeps its history in \(DataDirectory.systemPath): read it with 'sudo tunnelvision flows'"
    }
}
