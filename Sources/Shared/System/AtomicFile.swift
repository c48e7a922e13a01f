#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Replacing a whole file so that a reader, or a crash, finds the old content or the new and never
/// a mixture: the new bytes go to a temporary file beside the target, are synced, and are renamed
/// over it (rename is atomic within a filesystem); then the directory is synced so the rename
/// itself survives a power cut.
package enum AtomicFile {
    /// Replaces (or creates) `url` with `data`, with exactly `mode` whatever the umask. Creates the
    /// directory (0700) if missing. On any failure before the rename the temporary file is removed
    /// and the old file is untouched; see `AtomicFileError.replaced` for the one failure after it.
    package static func replace(_ url: URL, with data: Data, mode: mode_t = 0o600) throws(AtomicFileError) {
        let directory = url.deletingLastPathComponent()
        do {
            try PrivateDirectory.create(directory)
        } catch {
            throw AtomicFileError(step: .createDirectory, path: error.path, errno: error.errno)
        }
        let (descriptor, temporary) = try createTemporary(beside: url, mode: mode)
        do throws(AtomicFileError) {
            try write(data, to: descriptor, path: temporary, mode: mode)
            guard rename(temporary, url.path) == 0 else {
                throw AtomicFileError(step: .rename, path: url.path, errno: errno)
            }
        } catch {
            unlink(temporary)
            throw error
        }
        try syncDirectory(directory)
    }

    /// A new, empty file beside `url` with a name nobody else holds (O_EXCL): a hidden dot name
    /// ending in `.tmp`, so it is never mistaken for the real one.
    private static func createTemporary(beside url: URL, mode: mode_t) throws(AtomicFileError) -> (Int32, String) {
        let directory = url.deletingLastPathComponent().path
        var failure: Int32 = EEXIST
        for _ in 0..<8 {
            let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 16)
            let path = "\(directory)/.\(url.lastPathComponent).\(suffix).tmp"
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            if descriptor >= 0 { return (descriptor, path) }
            failure = errno
            if failure != EEXIST { break }
        }
        throw AtomicFileError(step: .createTemporary, path: directory, errno: failure)
    }

    /// Writes, syncs and closes; the descriptor is closed whatever happens.
    private static func write(_ data: Data, to descriptor: Int32, path: String, mode: mode_t) throws(AtomicFileError) {
        var isOpen = true
        defer { if isOpen { close(descriptor) } }
        // open(2) filters the mode through the umask; the file must have exactly `mode`.
        guard fchmod(descriptor, mode) == 0 else { throw AtomicFileError(step: .write, path: path, errno: errno) }
        if let failure = data.withUnsafeBytes({ FileDescriptor.writeAll(descriptor, $0) }) {
            throw AtomicFileError(step: .write, path: path, errno: failure)
        }
        guard fsync(descriptor) == 0 else { throw AtomicFileError(step: .sync, path: path, errno: errno) }
        isOpen = false
        guard close(descriptor) == 0 else { throw AtomicFileError(step: .write, path: path, errno: errno) }
    }

    private static func syncDirectory(_ directory: URL) throws(AtomicFileError) {
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw AtomicFileError(step: .syncDirectory, path: directory.path, errno: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw AtomicFileError(step: .syncDirectory, path: directory.path, errno: errno)
        }
    }
}

/// A file could not be replaced. Unless `replaced`, the old file is as it was and nothing was
/// left behind: the caller reports the failure, and may try again.
package struct AtomicFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where it failed, in the order the steps happen.
    package enum Step: String, Sendable, Hashable {
        case createDirectory, createTemporary, write, sync, rename, syncDirectory
    }

    package let step: Step
    package let path: String
    package let errno: Int32

    package init(step: Step, path: String, errno: Int32) {
        self.step = step
        self.path = path
        self.errno = errno
    }

    /// The new content is in place but its rename may not survive a power cut (the directory
    /// could not be synced). Report it; the content itself is the new one.
    package var replaced: Bool { step == .syncDirectory }

    package var description: String {
        let action = switch step {
        case .createDirectory: "create the directory"
        case .createTemporary: "create a temporary file in"
        case .write: "write"
        case .sync: "sync"
        case .rename: "replace"
        case .syncDirectory: "sync the directory"
        }
        return "cannot \(action) \(path): \(SystemError.text(errno))"
    }
}
