#if canImport(Glibc)
import Glibc
#endif
import Shared

/// Why the event loop could not start, watch a descriptor, or go on; each says what to do.
package enum EventLoopError: Error, Sendable, Equatable, CustomStringConvertible {
    /// epoll, its eventfd or its timerfd could not be made (`call` names which). Almost always the
    /// descriptor limit (EMFILE, ENFILE): raise `ulimit -n`, or close flows sooner.
    case setupFailed(call: String, errno: Int32)
    /// epoll_ctl refused a change for this descriptor. EBADF: it was closed before `unregister`
    /// (unregister first); EEXIST: registered twice (use `modify`); ENOENT: not registered;
    /// EPERM: a regular file or directory, which epoll cannot watch (read it directly).
    case controlFailed(EventLoopOperation, descriptor: Int32, errno: Int32)
    /// epoll_wait failed for a reason other than a signal: the loop cannot go on, so `run`
    /// returns; the owner should close its flows and report the daemon as failed.
    case waitFailed(errno: Int32)

    package var description: String {
        switch self {
        case .setupFailed(let call, let code):
            "cannot start the event loop: \(call) failed: \(SystemError.text(code))"
                + (code == EMFILE || code == ENFILE ? " (raise the open-file limit, ulimit -n)" : "")
        case .controlFailed(let operation, let descriptor, let code):
            "cannot \(operation.rawValue) descriptor \(descriptor) with the event loop: \(SystemError.text(code))"
        case .waitFailed(let code):
            "the event loop stopped: epoll_wait failed: \(SystemError.text(code))"
        }
    }
}

/// Which change to a descriptor's registration failed.
package enum EventLoopOperation: String, Sendable, Equatable {
    case register, modify, unregister
}
