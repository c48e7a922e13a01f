import Posix
import Shared

/// Why a running tunnel stopped by itself: its loop thread ended and the monitored side has no
/// network any more. The owner (`run`) ends the monitored command, says this, and exits non-zero.
package enum TunnelFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The event loop could not wait any more (epoll_wait failed): a fault of the system or of
    /// TunnelVision, not of the traffic. Start the run again; report it if it repeats.
    case loopFailed(EventLoopError)
    /// The TUN device is gone: its interface was deleted (`ip link del`) or its descriptor closed
    /// — the errno says which, nil when the loop reported it hung up. Start the run again, and
    /// leave its interface alone while it runs.
    case deviceGone(errno: Int32?)
    /// Reading the TUN device failed with this errno `times` times in a row: it is not clearing.
    case deviceReadFailed(errno: Int32, times: Int)
    /// Writing to the TUN device failed with this errno `times` times in a row.
    case deviceWriteFailed(errno: Int32, times: Int)
    /// A passive target's interface is gone (deleted, or renamed and replaced): nothing is left to
    /// watch. Start the service again on the interface that is there now.
    case interfaceGone(String)

    package var description: String {
        switch self {
        case .loopFailed(let error):
            "the tunnel stopped: \(error); start the run again, and report it if it repeats"
        case .deviceGone(let code):
            "the tunnel stopped: its TUN device is gone"
                + (code.map { " (\(SystemError.name($0)): \(SystemError.text($0)))" } ?? " (it hung up)")
                + "; something deleted its interface or closed it — start the run again and leave the interface alone"
        case .deviceReadFailed(let code, let times):
            "the tunnel stopped: reading its TUN device failed \(times) times in a row (\(SystemError.name(code)): "
                + "\(SystemError.text(code))); start the run again, and report it if it repeats"
        case .deviceWriteFailed(let code, let times):
            "the tunnel stopped: writing to its TUN device failed \(times) times in a row (\(SystemError.name(code)): "
                + "\(SystemError.text(code))); start the run again, and report it if it repeats"
        case .interfaceGone(let name):
            "monitoring stopped: the interface \(name) is gone; start it again on an interface that is there (ip link)"
        }
    }
}
