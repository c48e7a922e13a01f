#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The file handling under `LocalCA`: every path looked at with lstat, opened with O_NOFOLLOW,
/// new files created with O_EXCL under a temporary name and linked into place (so an existing file
/// is never replaced), modes checked on the open descriptor.
enum LocalCAFiles {
    /// A key file is a few hundred bytes; anything far larger is not one, and is not read whole.
    static let largestFile = 64 * 1024
    private static let temporarySuffix = ".tmp"

    /// True when `ca/` is there and fit to read; false when it is absent.
    static func checkDirectory(_ directory: URL) throws(LocalCAError) -> Bool {
        guard let status = PathStatus.of(directory.path) else {
            if errno == ENOENT { return false }
            throw .system(path: directory.path, action: "look at", errno: errno)
        }
        switch status.kind {
        case .directory: break
        case .symbolicLink:
            throw .insecure(path: directory.path, problem: "is a symbolic link",
                            fix: "Replace it with a directory of its own (mode 0700), or remove it.")
        default:
            throw .corrupt(path: directory.path, problem: "is not a directory")
        }
        if status.owner != geteuid() {
            throw .insecure(path: directory.path, problem: "belongs to user \(status.owner), not to you (user \(geteuid()))",
                            fix: "Give it to yourself (chown) or use a data directory of your own (--data-dir).")
        }
        if status.mode & 0o077 != 0 {
            throw .insecure(path: directory.path, problem: "is open to others (mode \(String(status.mode, radix: 8)))",
                            fix: "Make it yours alone: chmod 700 \(directory.path)")
        }
        return true
    }

    static func exists(_ file: URL) throws(LocalCAError) -> Bool {
        if PathStatus.of(file.path) != nil { return true }
        if errno == ENOENT { return false }
        throw .system(path: file.path, action: "look at", errno: errno)
    }

    /// The file's text, read through a descriptor opened without following a link. A private key
    /// must be the user's and closed to others.
    static func read(_ file: URL, privateKey: Bool) throws(LocalCAError) -> String {
        let descriptor = open(file.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ELOOP {
                throw .insecure(path: file.path, problem: "is a symbolic link",
                                fix: "Put the file itself there (mode 0600), or 'tunnelvision ca remove'.")
            }
            throw .system(path: file.path, action: "open", errno: errno)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .system(path: file.path, action: "look at", errno: errno) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .corrupt(path: file.path, problem: "is not a regular file") }
        if privateKey {
            if status.st_uid != geteuid() {
                throw .insecure(path: file.path, problem: "belongs to user \(status.st_uid), not to you (user \(geteuid()))",
                                fix: "Give it to yourself: chown \(geteuid()) \(file.path)")
            }
            if status.st_mode & 0o077 != 0 {
                throw .insecure(path: file.path, problem: "can be read by others (mode \(String(status.st_mode & 0o777, radix: 8)))",
                                fix: "Close it to others: chmod 600 \(file.path)")
            }
        }
        guard status.st_size <= largestFile else {
            throw .corrupt(path: file.path, problem: "is \(status.st_size) bytes, far more than a key or certificate")
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system(path: file.path, action: "read", errno: errno)
            }
            if count == 0 { break }
            filled += count
        }
        guard let text = String(validating: bytes.prefix(filled), as: UTF8.self) else {
            throw .corrupt(path: file.path, problem: "is not text (PEM)")
        }
        return text
    }

    /// Creates `file` with `bytes` and exactly `mode`; refuses when it exists. The bytes go to a
    /// temporary file made with O_EXCL | O_NOFOLLOW, are synced, and are linked into place (link
    /// fails on an existing name rather than replacing it); then the directory is synced.
    static func writeNew(_ file: URL, _ bytes: [UInt8], mode: mode_t) throws(LocalCAError) {
        let directory = file.deletingLastPathComponent().path
        let temporary = "\(directory)/.\(file.lastPathComponent).\(String(UInt64.random(in: 0...UInt64.max), radix: 16))\(temporarySuffix)"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw .system(path: temporary, action: "create", errno: errno) }
        defer { unlink(temporary) }
        var failure: (String, Int32)?
        if fchmod(descriptor, mode) != 0 {
            failure = ("set the mode of", errno)
        } else if let error = bytes.withUnsafeBytes({ FileDescriptor.writeAll(descriptor, $0) }) {
            failure = ("write", error)
        } else if fsync(descriptor) != 0 {
            failure = ("sync", errno)
        }
        close(descriptor)
        if let failure { throw .system(path: temporary, action: failure.0, errno: failure.1) }
        guard link(temporary, file.path) == 0 else {
            if errno == EEXIST { throw .alreadyExists(directory: directory) }
            throw .system(path: file.path, action: "create", errno: errno)
        }
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    /// Temporary files a write interrupted by a crash left behind (ours only: dot name, `.tmp`).
    static func removeLeftovers(in directory: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(".") && name.hasSuffix(temporarySuffix) {
            unlink(directory.appendingPathComponent(name).path)
        }
    }
}
