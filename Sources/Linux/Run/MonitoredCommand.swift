#if canImport(Glibc)
import Glibc
#endif

/// The program a person asked to monitor, run inside the monitored namespace — as the person who
/// invoked `sudo`, not as root, when there is one — with the terminal's standard streams, so an
/// interactive command behaves as it would without the tunnel. `start` (RunningCommand.swift)
/// runs it.
package struct MonitoredCommand: Sendable, Equatable {
    package let arguments: [String]
    /// Who the command runs as; nil: it stays root.
    package let account: CommandAccount?
    /// The descriptor limit the command gets back when the tunnel raised its own.
    let openFileLimit: OpenFileLimit?

    package init(arguments: [String], account: CommandAccount?, openFileLimit: OpenFileLimit? = nil) {
        self.arguments = arguments
        self.account = account
        self.openFileLimit = openFileLimit
    }

    /// The environment the command starts with: ours, with the account's HOME, USER and LOGNAME
    /// when it drops to one (as `sudo -u` and `su` set them).
    package func environment(from ours: [String: String]) -> [String: String] {
        guard let account else { return ours }
        var environment = ours
        environment["HOME"] = account.home
        environment["USER"] = account.name
        environment["LOGNAME"] = account.name
        return environment
    }

    /// How the command ended.
    package enum Ending: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)

        /// Decodes a raw `waitpid` status (the W* macros do not import): the low 7 bits are the
        /// terminating signal, 0 for a normal exit whose code is in the next byte.
        package init?(waitStatus: Int32) {
            let signal = waitStatus & 0x7f
            if signal == 0 {
                self = .exited((waitStatus >> 8) & 0xff)
            } else if signal != 0x7f {   // 0x7f: stopped or continued, not ended
                self = .signalled(signal)
            } else {
                return nil
            }
        }

        /// The status `tunnelvision run` itself exits with: the command's, or 128 + signal as a
        /// shell reports it.
        package var exitStatus: Int32 {
            switch self {
            case .exited(let status): status
            case .signalled(let signal): 128 + signal
            }
        }
    }

    /// Where `program` is found the way a shell looks for it (a path, or `$PATH`), or nil.
    package static func locate(_ program: String, environment: [String: String]) -> String? {
        if program.contains("/") { return access(program, X_OK) == 0 ? program : nil }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":", omittingEmptySubsequences: false)
            .map { ($0.isEmpty ? "." : String($0)) + "/" + program }
            .first { access($0, X_OK) == 0 && !isDirectory($0) }
    }

    /// Whether `program` can be found the way the command will look for it.
    package static func canFind(_ program: String, environment: [String: String]) -> Bool {
        locate(program, environment: environment) != nil
    }

    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }
}
