#if canImport(Glibc)
import Glibc
#endif

/// The `flock` that serialises ring initialisation (ipc spec): a producer creating a session's
/// file holds it exclusively, a consumer opening one holds it shared, so neither sees the other
/// half-way. It lives in its own file beside the ring, because the ring file itself is replaced
/// by rename and a lock on it would not outlive the swap.
struct RingLock {
    private let descriptor: Int32

    static func path(forRing ringPath: String) -> String { ringPath + ".lock" }

    /// The producer's lock: created if missing. A symbolic link in its place is refused, never
    /// followed: root would otherwise create or open a file wherever it points.
    static func exclusive(forRing ringPath: String) throws(IPCError) -> RingLock {
        let path = path(forRing: ringPath)
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let failure = errno
            throw failure == ELOOP ? .symbolicLink(path: path) : .openFailed(path: path, errno: failure)
        }
        return RingLock(descriptor: descriptor, operation: LOCK_EX)
    }

    /// The consumer's lock, or nil when no producer ever made one (then there is nothing to wait
    /// for: a ring appears only by rename, already whole). A reader never creates files.
    static func shared(forRing ringPath: String) -> RingLock? {
        let descriptor = open(path(forRing: ringPath), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        return RingLock(descriptor: descriptor, operation: LOCK_SH)
    }

    private init(descriptor: Int32, operation: Int32) {
        self.descriptor = descriptor
        while flock(descriptor, operation) != 0 && errno == EINTR {}
    }

    func release() {
        close(descriptor)   // closing drops the lock
    }
}
