#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// `run --keylog FILE`: the TLS secrets of both legs of every inspected flow, in the NSS key log
/// format (SSLKEYLOGFILE) Wireshark and tshark read, so the tunnel's own capture decrypts.
///
/// The file is secret: created 0600, opened with `O_NOFOLLOW` (never written through a symlink),
/// refused when others may read it, appended to, never truncated. Each line is one `write`; a
/// short one is cut back off, so the file never holds half a line. A failed write is counted and
/// said once — it never stops the tunnel.
///
/// A final class behind a lock, not an actor: OpenSSL calls `append` synchronously from inside a
/// session's call on the event loop, while the counters are read from elsewhere.
///
/// `@unchecked Sendable`: `written`, `failed` and every write to `descriptor` are under `lock` (an
/// `NSLock`); the other properties are `let`s.
package final class TLSKeyLog: @unchecked Sendable {
    package let path: String
    private let descriptor: Int32
    private let report: @Sendable (String) -> Void
    private let lock = NSLock()
    private var written = 0
    private var failed = 0

    /// Opens (or creates) `path`; `report` hears the first write failure, once.
    package init(path: String, report: @escaping @Sendable (String) -> Void) throws(TLSKeyLogError) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw errno == ELOOP ? .symbolicLink(path: path) : .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            Glibc.close(descriptor)
            throw .notRegularFile(path: path)
        }
        guard status.st_mode & 0o077 == 0 else {
            Glibc.close(descriptor)
            throw .readableByOthers(path: path, mode: status.st_mode & 0o777)
        }
        self.path = path
        self.descriptor = descriptor
        self.report = report
    }

    deinit { Glibc.close(descriptor) }

    /// Lines written whole.
    package var linesWritten: Int { lock.withLock { written } }
    /// Lines lost to a failed write.
    package var linesFailed: Int { lock.withLock { failed } }

    /// One line OpenSSL produced (without its newline).
    package func append(line: String) {
        let bytes = Array((line + "\n").utf8)
        let failure: String? = lock.withLock {
            var status = stat()
            let before = fstat(descriptor, &status) == 0 ? status.st_size : -1
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count == bytes.count {
                written += 1
                return nil
            }
            let reason = count < 0 ? String(cString: strerror(errno)) : "only \(count) of \(bytes.count) bytes written"
            if count > 0, before >= 0 { _ = ftruncate(descriptor, before) }  // never leave half a line
            failed += 1
            return failed == 1 ? reason : nil
        }
        if let failure {
            report("the key log \(path) could not be written (\(failure)); inspection goes on, "
                   + "but Wireshark will not decrypt the flows whose keys are missing")
        }
    }
}

/// Why the key log could not be opened; each says what the person can do.
package enum TLSKeyLogError: Error, Equatable, CustomStringConvertible {
    case symbolicLink(path: String)
    case notRegularFile(path: String)
    case readableByOthers(path: String, mode: mode_t)
    case cannotOpen(path: String, reason: String)

    package var description: String {
        switch self {
        case .symbolicLink(let path):
            "--keylog \(path) is a symbolic link; key logs are never written through one: give the real file's path"
        case .notRegularFile(let path):
            "--keylog \(path) is not a regular file: give a path to a file (it is created if missing)"
        case .readableByOthers(let path, let mode):
            "--keylog \(path) has mode \(String(mode, radix: 8)), readable by others; the key log holds secrets: "
                + "run chmod 600 \(path), or give a new path (it is created 0600)"
        case .cannotOpen(let path, let reason):
            "--keylog \(path) could not be opened: \(reason)"
        }
    }
}
