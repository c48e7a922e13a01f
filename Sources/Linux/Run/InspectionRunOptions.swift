#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// `run --inspect`'s own options, carried from the command line to the tunnel session (nil there:
/// no inspection). Inspection happens in a run exactly when `--inspect` was given, whatever the
/// stored `tls-inspection` setting says at the start; while the run lasts, that setting turned
/// off pauses it for new connections and turned on resumes it.
package struct InspectionRunOptions: Sendable, Equatable {
    /// The upstream leg's trust for a lab, in place of the system's: a PEM file of CA certificates.
    package var upstreamCA: URL?
    /// Where the NSS key log of both legs of every inspected flow is appended.
    package var keyLog: URL?

    package init(upstreamCA: URL? = nil, keyLog: URL? = nil) {
        self.upstreamCA = upstreamCA
        self.keyLog = keyLog
    }

    /// Why `path` cannot serve as `--upstream-ca`, or nil: it must be a regular file this process
    /// can read, named directly (a symlink could be swapped under the run).
    package static func upstreamCAProblem(_ path: String) -> String? {
        guard let status = PathStatus.of(path) else { return "\(path) does not exist" }
        switch status.kind {
        case .symbolicLink: return "\(path) is a symbolic link; give the file it points to"
        case .regularFile: break
        default: return "\(path) is not a regular file"
        }
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return "\(path) cannot be read: \(SystemError.text(errno))" }
        close(descriptor)
        return nil
    }

    /// Why `path` cannot serve as `--keylog`, or nil: a regular file or none yet, not a symlink
    /// (the log holds secrets; it is never written through a link), in a directory we can write.
    package static func keyLogProblem(_ path: String) -> String? {
        if let status = PathStatus.of(path) {
            switch status.kind {
            case .symbolicLink: return "\(path) is a symbolic link; the key log is never written through one"
            case .regularFile: break
            default: return "\(path) is not a regular file"
            }
        }
        let parent = (path as NSString).deletingLastPathComponent
        let directory = parent.isEmpty ? "." : parent
        guard PathStatus.of(directory)?.kind == .directory else { return "\(directory) is not a directory" }
        guard access(directory, W_OK) == 0 else {
            return "\(directory) cannot be written: \(SystemError.text(errno))"
        }
        return nil
    }
}
