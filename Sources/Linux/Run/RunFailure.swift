import Shared

/// Why `run` (or `demo`) could not monitor anything. Each is shown to the person as it reads, and
/// the command exits with `exitStatus`; nothing of the tunnel is left behind.
package enum RunFailure: Error, CustomStringConvertible {
    /// Not root: `command` (`run`) needs it to make `makes`; `retry` is the command line to run
    /// again through sudo. Exit status 1.
    case notRoot(command: String, makes: String, retry: String)
    /// No /dev/net/tun (a container without the device, say). Exit status 1.
    case noTUNDevice
    /// The program to monitor is not there, as a shell reports it. Exit status 127.
    case commandNotFound(String)
    /// Programs the demo's servers and clients need. Exit status 1.
    case missingPrograms(String)
    /// The data directory could not be made or is not a private directory: its path and why.
    /// Exit status 1.
    case dataDirectory(DirectoryError)
    /// A system program (`ip`, for the namespace, its routes and resolv.conf, or CMD's start)
    /// could not run or said no, in its own words. Exit status 1.
    case system(CommandError)
    /// The TUN device could not be made (no module, no CAP_NET_ADMIN). Exit status 1.
    case device(TUNError)
    /// The tunnel session could not open its history, ring, capture or loop; the error says
    /// which, and what to do. Exit status 1.
    case session(TunnelSessionError)
    /// The monitored command could not be started as asked (its account, its namespace, its
    /// exec); exit status 126/127 for a program that cannot be executed, as a shell's, else 1.
    case command(CommandStartFailure)
    /// The demo's lab could not be built or run, in the words of the part that failed. Exit status 1.
    case setUp(String)
    /// `run --inspect` will not start (no CA — exit status 2 —, a CA it cannot use, the trust
    /// probe); the refusal says what to do.
    case inspection(InspectionRefusal)

    package var exitStatus: Int32 {
        switch self {
        case .commandNotFound: 127
        case let .command(failure): failure.exitStatus
        case let .inspection(refusal): refusal.exitStatus
        default: 1
        }
    }

    package var description: String {
        switch self {
        case let .notRoot(command, makes, retry): "\(command) needs root (it makes \(makes)): sudo \(retry)"
        case .noTUNDevice: "\(TUNError.deviceMissing)"
        case let .commandNotFound(program): "\(program): command not found"
        case let .missingPrograms(advice): advice
        case let .dataDirectory(error): "\(error)"
        case let .system(error): "\(error)"
        case let .device(error): "\(error)"
        case let .session(error): "\(error)"
        case let .command(failure): "\(failure)"
        case let .setUp(reason): reason
        case let .inspection(refusal): "\(refusal)"
        }
    }
}
