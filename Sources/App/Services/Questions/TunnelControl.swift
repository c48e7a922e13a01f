import Foundation
import Shared

/// The seam to the tunnel running on a data directory, for the questions that need it (captures'
/// presence and rotation, storage, diagnostics): `App` holds no sockets, the shell injects the
/// control channel (`TunnelControl.channel` in AppLinux), a test a scripted one.
package struct TunnelControl: Sendable {
    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// No tunnel serves the data directory's control socket.
        case notRunning
        /// The socket could not be asked or did not answer (why).
        case failed(String)

        package var description: String {
            switch self {
            case .notRunning: "no tunnel is running"
            case let .failed(reason): reason
            }
        }
    }

    package typealias Ask = @Sendable (_ dataDirectory: URL, _ command: ControlCommand) throws(Failure) -> ControlResponse

    private let ask: Ask

    package init(ask: @escaping Ask) {
        self.ask = ask
    }

    package func send(_ command: ControlCommand, in dataDirectory: URL) throws(Failure) -> ControlResponse {
        try ask(dataDirectory, command)
    }

    /// Whether a tunnel records into `directory`, as its control socket says.
    package func presence(in directory: URL) -> CapturesTunnelPresence {
        do {
            _ = try send(.stats, in: directory)
            return .live
        } catch {
            if case .failed(let reason) = error { return .unknown(reason) }
            return .absent
        }
    }
}
