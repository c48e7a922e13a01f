#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The program a person asked to monitor, run inside the monitored namespace — as the person who
/// invoked `sudo`, not as root, when there is one — with the terminal's standard streams, so an
/// interactive command behaves as it would without the tunnel.
public struct MonitoredCommand: Sendable, Equatable {
    /// Who the command runs as: the invoking user behind `sudo`, or nil to stay who we are.
    public struct User: Sendable, Equatable {
        public let uid: UInt32
        public let gid: UInt32

        public init(uid: UInt32, gid: UInt32) {
            self.uid = uid
            self.gid = gid
        }

        /// The user `sudo` was invoked by (`SUDO_UID`/`SUDO_GID`), when we run as root through it.
        public static func invoking(environment: [String: String], effectiveUserID: UInt32) -> User? {
            guard effectiveUserID == 0, let uid = environment["SUDO_UID"].flatMap(UInt32.init),
                  let gid = environment["SUDO_GID"].flatMap(UInt32.init), uid != 0 else { return nil }
            return User(uid: uid, gid: gid)
        }
    }

    public let arguments: [String]
    public let user: User?
    /// The descriptor limit the command gets back when the tunnel raised its own.
    public let openFileLimit: OpenFileLimit?

    public init(arguments: [String], user: User?, openFileLimit: OpenFileLimit? = nil) {
        self.arguments = arguments
        self.user = user
        self.openFileLimit = openFileLimit
    }

    /// The full argv: `ip netns exec` (which also bind-mounts /etc/netns/NAME/resolv.conf over
    /// /etc/resolv.conf for the command), then `setpriv` to drop to the user, then `prlimit` to
    /// give back the usual descriptor limit, then the command.
    public func argv(namespace: String) -> [String] {
        var argv = ["ip", "netns", "exec", namespace]
        if let user {
            argv += ["setpriv", "--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups", "--"]
        }
        if let openFileLimit {
            argv += ["prlimit", openFileLimit.prlimitArgument, "--"]
        }
        return argv + arguments
    }

    /// How the command ended.
    public enum Ending: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)

        /// The status `tunnelvision run` itself exits with: the command's, or 128 + signal as a
        /// shell reports it.
        public var exitStatus: Int32 {
            switch self {
            case .exited(let status): status
            case .signalled(let signal): 128 + signal
            }
        }
    }

    /// Starts the command; `wait` on the result for its ending.
    public func start(namespace: String) throws(CommandError) -> Process {
        let argv = argv(namespace: namespace)
        guard let ip = ExternalCommand.locate(argv[0]) else { throw .notFound(argv[0]) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ip)
        process.arguments = Array(argv.dropFirst())
        do {
            try process.run()
        } catch {
            throw .launchFailed(arguments.first ?? "", "\(error)")
        }
        return process
    }

    public static func wait(_ process: Process) -> Ending {
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal ? .signalled(process.terminationStatus)
                                                              : .exited(process.terminationStatus)
    }

    /// Whether `program` can be found the way the command will look for it (a path, or `$PATH`).
    public static func canFind(_ program: String, environment: [String: String]) -> Bool {
        if program.contains("/") { return access(program, X_OK) == 0 }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").contains { access("\($0)/\(program)", X_OK) == 0 }
    }
}
