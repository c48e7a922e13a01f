/// What a non-blocking read or write did: the shell's syscalls reach the cores as values, so the
/// logic above them can be tested by scripting the kernel's answers (STYLE practice 9).
public enum IOResult: Sendable, Equatable {
    /// This many bytes moved.
    case processed(Int)
    /// Nothing to read, or no room to write: try again when the descriptor is ready.
    case wouldBlock
    /// The call failed with this errno.
    case failed(Int32)
}
