#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Where TunnelVision keeps its history, ring, captures and settings, and making it exist.
///
/// `--data-dir` wins, then `TUNNELVISION_DATA`; otherwise `/var/lib/tunnelvision` for root and
/// `$XDG_DATA_HOME/tunnelvision` (default `~/.local/share/tunnelvision`) for anyone else.
package enum DataDirectory {
    package static let environmentVariable = "TUNNELVISION_DATA"
    package static let systemPath = "/var/lib/tunnelvision"

    /// The directory to use. Pure: the environment and the user are inputs.
    package static func location(override: String?, environment: [String: String], effectiveUserID: UInt32) -> URL {
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
    package static func captures(in dataDirectory: URL) -> URL { DataDirectoryLayout.captures(in: dataDirectory) }

    /// Creates the directory (mode 0700) if missing, then refuses it unless it can be trusted
    /// with what the tunnel writes (`DataDirectoryTrust`).
    package static func prepare(_ directory: URL) throws(DirectoryError) {
        try PrivateDirectory.create(directory)
        try verify(directory, access: .write)
    }

    /// Refuses a directory that cannot be trusted (`DataDirectoryTrust`). One that does not
    /// exist is fine: it holds nothing yet, and whoever makes it makes it 0700.
    package static func verify(_ directory: URL, access: DataDirectoryTrust.Access) throws(DirectoryError) {
        let path = directory.standardizedFileURL.path
        guard let status = PathStatus.of(path) else {
            if errno == ENOENT { return }
            throw DirectoryError(path: path, errno: errno)
        }
        var parents: [(path: String, status: PathStatus)] = []
        if status.kind == .directory, let resolved = realpath(path, nil) {
            defer { free(resolved) }
            for parent in DataDirectoryTrust.ancestors(of: String(cString: resolved)) {
                guard let parentStatus = PathStatus.of(parent) else { throw DirectoryError(path: parent, errno: errno) }
                parents.append((parent, parentStatus))
            }
        }
        let user = geteuid()
        if let refusal = DataDirectoryTrust.refusal(of: path, status: status, parents: parents, user: user,
                                                    userName: userName(user), access: access) {
            throw refusal
        }
    }

    /// The account name of `user`, or `uid N` when it has none.
    static func userName(_ user: uid_t) -> String {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(user, &entry, &buffer, buffer.count, &found) == 0, found != nil, let name = entry.pw_name else {
            return "uid \(user)"
        }
        return String(cString: name)
    }
}
