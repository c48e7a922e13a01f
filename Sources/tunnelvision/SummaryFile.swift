#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// `run --json-summary PATH`'s file. It holds CMD's command line (and every host it reached), so
/// it is the user's alone: a new file of mode 0600 replaces PATH atomically, whatever mode or
/// owner an existing file had. A symbolic link at PATH is never written through to a file (it is
/// refused, before CMD starts: replacing it could replace `/dev/stdout` itself); only when PATH
/// leads to no file at all — `/dev/stdout` on a terminal or a pipe, a FIFO a script reads,
/// `/dev/null` — does the summary go through it. Every failure — a missing or read-only
/// directory, a full disk found at the write or the close — is reported, never ignored.
enum SummaryFile {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// What PATH is, as the summary is written to it.
    private enum Target {
        /// A file (or nothing yet): replaced by a new one.
        case file
        /// A terminal, a pipe, a device: written through.
        case stream
        case refused(String)
    }

    private static func target(of path: String) -> Target {
        guard let own = PathStatus.of(path) else { return .file }   // absent, or unreadable: replacing says why
        switch own.kind {
        case .regularFile: return .file
        case .directory: return .refused("\(path) is a directory")
        case .socket, .other: return .stream
        case .symbolicLink:
            var status = stat()
            let kind = stat(path, &status) == 0 ? status.st_mode & S_IFMT : S_IFREG
            if kind != S_IFREG && kind != S_IFDIR { return .stream }
            return .refused("\(path) is a symbolic link; the summary holds CMD's command line, so it is written only as a "
                            + "file of its own (mode 0600): give that file's path")
        }
    }

    /// Why PATH cannot take the summary, checked before CMD starts so that a typo costs nothing;
    /// nil when it looks writable (a full disk still shows only at the write).
    static func unwritableDirectory(of path: String) -> String? {
        switch target(of: path) {
        case .refused(let why): return why
        case .stream: return access(path, W_OK) == 0 ? nil : "\(path): \(SystemError.text(errno))"
        case .file: break
        }
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let parent = directory.isEmpty ? "/" : directory
        var status = stat()
        guard stat(parent, &status) == 0 else { return "\(parent): \(SystemError.text(errno))" }
        guard status.st_mode & S_IFMT == S_IFDIR else { return "\(parent) is not a directory" }
        guard access(parent, W_OK) == 0 else { return "\(parent): \(SystemError.text(errno))" }
        return nil
    }

    /// `owner`: the user `sudo` was invoked by, who asked for the file and is given it (as CMD
    /// ran as them); nil leaves it the effective user's.
    static func write(_ text: String, to path: String, owner: (uid: UInt32, gid: UInt32)? = nil) throws(Failure) {
        switch target(of: path) {
        case .refused(let why):
            throw Failure(description: why)
        case .stream:
            try writeThrough(text, to: path)
        case .file:
            do {
                try AtomicFile.replace(URL(fileURLWithPath: path), with: Data(text.utf8), mode: 0o600)
            } catch {
                // The rename is done when only the directory's sync failed: the summary is there.
                guard error.replaced else { throw Failure(description: "\(error)") }
            }
            // lchown: had the name been swapped for a link meanwhile, the link changes, never its target.
            if let owner, lchown(path, owner.uid, owner.gid) != 0 {
                throw Failure(description: "written (mode 0600), but not given to user \(owner.uid): \(SystemError.text(errno))")
            }
        }
    }

    /// Opened without O_CREAT or O_TRUNC, and checked again on the descriptor: a file that took
    /// the stream's place meanwhile is not written.
    private static func writeThrough(_ text: String, to path: String) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(description: SystemError.text(errno)) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT != S_IFREG else {
            close(descriptor)
            throw Failure(description: "\(path) became a file while CMD ran; nothing was written through it")
        }
        let failure = Array(text.utf8).withUnsafeBytes { FileDescriptor.writeAll(descriptor, $0) }
        // A network or full file system may report a failed write only at the close.
        let closed = close(descriptor) == 0 ? nil : errno
        if let failure = failure ?? closed { throw Failure(description: SystemError.text(failure)) }
    }
}
