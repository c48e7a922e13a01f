/// Why `run` (or `demo`) could not monitor anything. Each is shown to the person as it reads, and
/// the command exits with `exitStatus`; nothing of the tunnel is left behind.
package enum RunFailure: Error, Equatable, CustomStringConvertible {
    /// Not root: `command` (`run`) needs it to make `makes`; `retry` is the command line to run
    /// again through sudo. Exit status 1.
    case notRoot(command: String, makes: String, retry: String)
    /// No /dev/net/tun (a container without the device, say). Exit status 1.
    case noTUNDevice
    /// The program to monitor is not there, as a shell reports it. Exit status 127.
    case commandNotFound(String)
    /// Programs the demo's servers and clients need. Exit status 1.
    case missingPrograms(String)
    /// Setting the tunnel up failed, in the words of the part that failed. Exit status 1.
    case setUp(String)

    package var exitStatus: Int32 {
        if case .commandNotFound = self { return 127 }
        return 1
    }

    package var description: String {
        switch self {
        case let .notRoot(command, makes, retry): "\(command) needs root (it makes \(makes)): sudo \(retry)"
        case .noTUNDevice: "\(TUNError.deviceMissing)"
        case let .commandNotFound(program): "\(program): command not found"
        case let .missingPrograms(advice): advice
        case let .setUp(reason): reason
        }
    }
}
