#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// The file an export is written into: a temporary file beside the destination, filled piece by
/// piece, then synced and renamed over it — so a failure midway leaves no file and the earlier
/// export as it was. The destination is looked at, never followed: a link is refused, and a file
/// that is not an earlier export is refused untouched unless replacing it was asked for.
struct FlowExportFile {
    let destination: URL
    private let temporaryPath: String
    private var descriptor: Int32
    private(set) var bytesWritten: UInt64 = 0
    /// How much of a file is read to tell an export from a stranger.
    static let signatureLength = FlowExportFormat.signatureLength

    /// Opens the temporary file, after checking the destination may be replaced.
    init(destination: URL, replacingForeignFile: Bool) throws(FlowExportError) {
        self.destination = destination
        try Self.checkReplaceable(destination, replacingForeignFile: replacingForeignFile)
        let directory = destination.deletingLastPathComponent().path
        var failure: Int32 = EEXIST
        for _ in 0..<8 {
            let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 16)
            let path = "\(directory)/.\(destination.lastPathComponent).\(suffix).tmp"
            let opened = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if opened >= 0 {
                temporaryPath = path
                descriptor = opened
                // open(2) filters the mode through the umask; an export is the owner's alone.
                guard fchmod(opened, 0o600) == 0 else {
                    let code = errno
                    abandon()
                    throw .writeFailed("cannot write \(path): \(SystemError.text(code))")
                }
                return
            }
            failure = errno
            if failure != EEXIST { break }
        }
        throw .writeFailed("cannot create a file in \(directory): \(SystemError.text(failure))")
    }

    mutating func write(_ bytes: ArraySlice<UInt8>) throws(FlowExportError) {
        if let failure = bytes.withUnsafeBytes({ FileDescriptor.writeAll(descriptor, $0) }) {
            throw .writeFailed("cannot write \(destination.path): \(SystemError.text(failure))")
        }
        bytesWritten += UInt64(bytes.count)
    }

    /// Syncs the file and renames it over the destination, checked once more just before.
    mutating func commit(replacingForeignFile: Bool) throws(FlowExportError) {
        guard fsync(descriptor) == 0 else { throw .writeFailed("cannot sync \(destination.path): \(SystemError.text(errno))") }
        let closed = close(descriptor)
        descriptor = -1
        // A network or full file system may report a failed write only at the close.
        guard closed == 0 else { throw .writeFailed("cannot write \(destination.path): \(SystemError.text(errno))") }
        try Self.checkReplaceable(destination, replacingForeignFile: replacingForeignFile)
        guard rename(temporaryPath, destination.path) == 0 else {
            throw .writeFailed("cannot replace \(destination.path): \(SystemError.text(errno))")
        }
        let directory = open(destination.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    /// Removes the temporary file: nothing of this export stays behind.
    func abandon() {
        if descriptor >= 0 { close(descriptor) }
        unlink(temporaryPath)
    }

    /// Absent, or a regular file that is an earlier export (any regular file when replacing a
    /// foreign one was asked for). A link is never followed, whatever was asked.
    static func checkReplaceable(_ destination: URL, replacingForeignFile: Bool) throws(FlowExportError) {
        let path = destination.path
        guard let status = PathStatus.of(path) else {
            if errno == ENOENT { return }
            throw .writeFailed("cannot look at \(path): \(SystemError.text(errno))")
        }
        switch status.kind {
        case .symbolicLink:
            throw .writeFailed("\(path) is a symbolic link, which an export never follows: choose the file itself or another name")
        case .regularFile:
            if replacingForeignFile || isExport(at: path) { return }
            throw .foreignFile(path: path)
        case .directory:
            throw .writeFailed("\(path) is a directory: name a file to export to")
        case .socket, .other:
            throw .writeFailed("\(path) is not a regular file: name a file to export to")
        }
    }

    /// Whether the file at `path` begins as our exports do.
    private static func isExport(at path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var prefix = [UInt8](repeating: 0, count: signatureLength)
        var filled = 0
        while filled < signatureLength {
            let count = prefix.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, signatureLength - filled) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        return FlowExportFormat.isExport(prefix: prefix[..<filled])
    }
}
