#if canImport(Glibc)
import Glibc
#endif

/// Every failure of the monitoring control, typed (seeds/000 § Tunnel control): the shell maps
/// what the system said into one of these, so nothing above it sees an untyped error.
package enum TunnelControlError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not root and without CAP_NET_ADMIN: the Linux form of "the person said Don't Allow".
    case permissionDenied
    case configurationFailed(String)
    case startFailed(String)
    /// Asked to start with nothing set up.
    case notInstalled
    /// No service on the other side of the control channel: the ordinary race with a stop.
    case notRunning
    case controlChannelFailed(String)
    /// The service answered something that is not a `ControlResponse`.
    case malformedResponse

    /// What the manager was doing when the system refused.
    package enum Operation: Sendable, Equatable {
        case install, start, stop, control
    }

    /// Classifies a system error (an errno and its words) without the shell deciding anything:
    /// a missing privilege is a denial whatever was asked; on the control channel, no socket or
    /// no listener is no service running.
    package static func classifying(errno code: Int32, message: String, during operation: Operation) -> TunnelControlError {
        if code == EPERM || code == EACCES { return .permissionDenied }
        switch operation {
        case .install: return .configurationFailed(message)
        case .start: return .startFailed(message)
        case .stop, .control:
            return code == ENOENT || code == ECONNREFUSED ? .notRunning : .controlChannelFailed(message)
        }
    }

    /// In the words a screen or a terminal shows; the fix where there is one.
    package var description: String {
        switch self {
        case .permissionDenied:
            "permission denied: monitoring needs root or CAP_NET_ADMIN (run it with sudo, or start the service as root)"
        case let .configurationFailed(reason): "the monitoring configuration is not valid: \(reason)"
        case let .startFailed(reason): "monitoring could not start: \(reason)"
        case .notInstalled: "monitoring is not set up for this data directory yet"
        case .notRunning: "monitoring is not running"
        case let .controlChannelFailed(reason): "the monitoring service could not be reached: \(reason)"
        case .malformedResponse: "the monitoring service answered something that is not a control response"
        }
    }
}
