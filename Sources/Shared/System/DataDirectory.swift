#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Where TunnelVision keeps its history, ring, captures and settings, and making it exist.
///
/// `--data-dir` wins, then `TUNNELVISION_DATA`; otherwise `/var/lib/tunnelvision` for root and
/// `$XDG_DATA_HOME/tunnelvision` (default `~/.local/share/tunnelvision`) for anyone else.
public enum DataDirectory {
    public static let environmentVariable = "TUNNELVISION_DATA"
    public static let systemPath = "/var/lib/tunnelvision"

    /// The directory to use. Pure: the environment and the user are inputs.
    public static func location(override: String?, environment: [String: String], effectiveUserID: UInt32) -> URL {
        if let override, !override.isEmpty { return URL(fileURLWithPath: override) }
        if let fromEnvironment = environment[environmentVariable], !fromEnvironment.isEmpty {
            return URL(fileURLWithPath: fromEnvironment)
        }
        if effectiveUserID == 0 { return URL(fileURLWithPath: systemPath) }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("tunnelvision")
        }
        let home = environment["HOME"] ?? "/"
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/tunnelvision")
    }

    /// The captures' folder inside a data directory.
    public static func captures(in dataDirectory: URL) -> URL { DataDirectoryLayout.captures(in: dataDirectory) }

    /// Creates the directory (mode 0700) if missing. An existing one must be a directory.
    public static func prepare(_ directory: URL) throws(DirectoryError) {
        try PrivateDirectory.create(directory)
    }
}
