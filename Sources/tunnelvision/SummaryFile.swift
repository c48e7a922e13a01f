#if canImport(Glibc)
import Glibc
#endif
import Shared

/// `run --json-summary PATH`'s file: written in place, not replaced through a temporary file,
/// because PATH may be `/dev/stdout` or a pipe a script reads; every failure — a missing or
/// read-only directory, a full disk found at the write or the close — is reported, never ignored.
enum SummaryFile {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Why PATH's directory cannot take the file, checked before CMD starts so that a typo costs
    /// nothing; nil when it looks writable (a full disk still shows only at the write).
    static func unwritableDirectory(of path: String) -> String? {
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let parent = directory.isEmpty ? "/" : directory
        var status = stat()
        guard stat(parent, &status) == 0 else { return "\(parent): \(SystemError.text(errno))" }
        guard status.st_mode & S_IFMT == S_IFDIR else { return "\(parent) is not a directory" }
        guard access(parent, W_OK) == 0 else {
            let code = errno
            // An existing file may still be writable in a directory that is not (a device, say).
            if access(path, W_OK) == 0 { return nil }
            return "\(parent): \(SystemError.text(code))"
        }
        return nil
    }

    static func write(_ text: String, to path: String) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(description: SystemError.text(errno)) }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(descriptor)
                throw Failure(description: SystemError.text(code))
            }
            bytes = bytes.dropFirst(written)
        }
        // A network or full file system may report a failed write only here.
        guard close(descriptor) == 0 else { throw Failure(description: SystemError.text(errno)) }
    }
}
