#if canImport(Glibc)
import Glibc
#endif
import CTunnelVision

/// The ring's one reader (ipc spec: a single producer and a single consumer). Two readers would
/// take records from each other, each dashboard silently showing part of the traffic, so a
/// consumer claims the ring before it reads and holds the claim for its life: a lock on the ring's
/// lock file (`RingLock`'s), of a kind the producer's `flock` neither sees nor waits for, dropped
/// by the kernel when the reader closes or dies — never left behind.
struct RingReaderClaim {
    private let descriptor: Int32

    /// The claim, or nil when it cannot be asked for: no lock file (no producer ever made one) or
    /// one this user may not write (another user's ring; the reader reads on, unguarded, as the
    /// spec's reader always did). A reader never creates files.
    static func take(forRing ringPath: String) throws(IPCError) -> RingReaderClaim? {
        let path = RingLock.path(forRing: ringPath)
        let descriptor = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ELOOP { throw .symbolicLink(path: path) }
            return nil
        }
        let result = ctv_ring_claim_reader(descriptor)
        guard result != 0 else { return RingReaderClaim(descriptor: descriptor) }
        close(descriptor)
        if result == EAGAIN || result == EACCES { throw .readerInUse(path: ringPath) }
        throw .openFailed(path: path, errno: result)
    }

    func release() {
        close(descriptor)   // the last descriptor of the open file: the claim goes with it
    }
}
