import Shared

/// Why `run --inspect` does not start. Each says what the person can do; nothing was started.
package enum InspectionRefusal: Error, Equatable, CustomStringConvertible {
    /// It is known there is no local CA in the data directory. Exit status 2, as for a usage
    /// error: the command line asks for what this machine does not have yet.
    case noCA(dataDirectory: String)
    /// The local CA is there but cannot be used; never "no CA". Exit status 1.
    case ca(LocalCAError)
    /// The command's private trust store could not be written. Exit status 1.
    case bundle(String)
    /// The trust probe did not measure "trusted": every inspected connection of CMD would fail.
    /// Exit status 1.
    case probe(TrustVerdict)

    package var exitStatus: Int32 {
        if case .noCA = self { return 2 }
        return 1
    }

    package var description: String {
        let nothing = "Nothing was started."
        return switch self {
        case let .noCA(directory):
            "run --inspect needs a local CA, and there is none in \(directory): make one with 'tunnelvision ca create' "
                + "(with the same --data-dir, if you gave one), then run again. \(nothing)"
        case let .ca(problem): "run --inspect cannot use the local CA: \(problem). \(nothing)"
        case let .bundle(reason): "run --inspect \(reason). \(nothing)"
        case let .probe(verdict):
            "run --inspect refuses to start: \(verdict.sentence), so every inspected connection of the command would fail "
                + "(run without --inspect, or remake the CA with 'tunnelvision ca remove' and 'tunnelvision ca create'). \(nothing)"
        }
    }
}
