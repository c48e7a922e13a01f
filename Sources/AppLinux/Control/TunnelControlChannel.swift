import Foundation
import Shared

/// The control channel of the tunnel running on one data directory, for the commands: the socket
/// is asked only when the directory can be trusted and the socket is not a link. "No tunnel runs
/// there" is its own answer (`ControlSocketError.notRunning`), never mixed up with a failure.
package struct TunnelControlChannel: Sendable {
    package let dataDirectory: URL

    package init(dataDirectory: URL) {
        self.dataDirectory = dataDirectory
    }

    package var socketPath: String { DataDirectoryLayout.controlSocket(in: dataDirectory).path }

    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The data directory or its socket could not be trusted.
        case untrusted(String)
        case control(ControlSocketError)

        var isNotRunning: Bool {
            if case .control(.notRunning) = self { return true }
            return false
        }

        package var description: String {
            switch self {
            case let .untrusted(reason): reason
            case let .control(error): error.description
            }
        }
    }

    /// Sends `command` and returns the tunnel's answer.
    package func send(_ command: ControlCommand, timeout: Duration = .seconds(5)) throws(Failure) -> ControlResponse {
        do {
            try DataDirectory.verify(dataDirectory, access: .read)
        } catch {
            throw .untrusted(error.description)
        }
        if PathStatus.of(socketPath)?.kind == .symbolicLink {
            throw .untrusted(DirectoryError(path: socketPath, problem: .symbolicLink).description)
        }
        do {
            return try ControlClient.send(command, to: socketPath, timeout: timeout)
        } catch {
            throw .control(error)
        }
    }
}
