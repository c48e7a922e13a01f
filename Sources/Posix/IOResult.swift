#if canImport(Glibc)
import Glibc
#endif

/// What a non-blocking read or write did: the shell's syscalls reach the cores as values, so the
/// logic above them can be tested by scripting the kernel's answers (STYLE practice 9).
package enum IOResult: Sendable, Equatable {
    /// This many bytes moved.
    case processed(Int)
    /// Nothing to read, or no room to write: try again when the descriptor is ready.
    case wouldBlock
    /// The call failed with this errno.
    case failed(Int32)
}

extension IOResult {
    /// The answer of a call that returns a count or -1 with errno, retried when a signal
    /// interrupted it. Every descriptor the shell reads or writes (TUN, sockets) goes through it.
    package static func retryingInterrupts(_ call: () -> Int) -> IOResult {
        while true {
            let count = call()
            if count >= 0 { return .processed(count) }
            switch errno {
            case EINTR: continue
            case EAGAIN: return .wouldBlock
            case let failure: return .failed(failure)
            }
        }
    }
}
