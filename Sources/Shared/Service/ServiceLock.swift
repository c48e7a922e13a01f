#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The monitoring service's claim on a data directory: an exclusive `flock` on `service.lock`,
/// held for as long as the service lives. The kernel lets go when the process ends however it
/// ends (kill -9 included), so "is a service running here" is the lock's answer, never a pid
/// that may have been reused. The descriptor is close-on-exec: no helper or child inherits it.
package final class ServiceLock: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case symbolicLink(path: String)
        case failed(path: String, errno: Int32)

        package var errno: Int32 {
            switch self {
            case .symbolicLink: ELOOP
            case let .failed(_, code): code
            }
        }

        package var description: String {
            switch self {
            case let .symbolicLink(path): "\(path) is a symbolic link; it is not followed"
            case let .failed(path, code): "cannot lock \(path): \(SystemError.text(code))"
            }
        }
    }

    /// Takes the lock, or nil when another process holds it (a service runs here).
    package static func acquire(in dataDirectory: URL) throws(Failure) -> ServiceLock? {
        let path = DataDirectoryLayout.serviceLock(in: dataDirectory).path
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let failure = errno
            throw failure == ELOOP ? .symbolicLink(path: path) : .failed(path: path, errno: failure)
        }
        var result: Int32 = -1
        // A reader asking `isHeld` holds a shared lock for an instant: a few tries tell it from a service.
        for attempt in 0..<20 {
            if attempt > 0 { usleep(5_000) }
            repeat { result = flock(descriptor, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
            if result == 0 || errno != EWOULDBLOCK { break }
        }
        guard result == 0 else {
            let failure = errno
            close(descriptor)
            if failure == EWOULDBLOCK { return nil }
            throw .failed(path: path, errno: failure)
        }
        return ServiceLock(descriptor: descriptor)
    }

    /// Whether a service holds the lock now. Asks without creating anything: no lock file, no
    /// service. A shared lock taken and dropped at once, so a reader never holds a service back.
    package static func isHeld(in dataDirectory: URL) throws(Failure) -> Bool {
        let path = DataDirectoryLayout.serviceLock(in: dataDirectory).path
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let failure = errno
            if failure == ENOENT { return false }
            throw failure == ELOOP ? .symbolicLink(path: path) : .failed(path: path, errno: failure)
        }
        defer { close(descriptor) }
        var result: Int32
        repeat { result = flock(descriptor, LOCK_SH | LOCK_NB) } while result != 0 && errno == EINTR
        if result == 0 { return false }   // closing the descriptor drops the shared lock again
        let failure = errno
        if failure == EWOULDBLOCK { return true }
        throw .failed(path: path, errno: failure)
    }

    /// Lets go: the next service may start.
    package func release() { close(descriptor) }
}
