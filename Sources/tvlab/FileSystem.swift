#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The few file operations tvlab needs, as errors a person can read.
enum FileSystem {
    /// Creates a new private directory `<parent>/<prefix>XXXXXX` and returns its path.
    static func makeTemporaryDirectory(in parent: String, prefix: String) throws(Failure) -> String {
        var template = Array("\(parent)/\(prefix)XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
        guard created else { throw Failure("cannot create a temporary directory in \(parent)", errno: errno) }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Where temporary files go: $TMPDIR, else /tmp.
    static var temporaryParent: String {
        var parent = ProcessInfo.processInfo.environment["TMPDIR"] ?? ""
        while parent.count > 1, parent.hasSuffix("/") { parent.removeLast() }
        return parent.isEmpty ? "/tmp" : parent
    }

    /// Removes `path` and everything under it; a failure is only worth a warning.
    static func removeTree(_ path: String) {
        do { try FileManager.default.removeItem(atPath: path) } catch {
            Console.error("warning: could not remove \(path): \(error.localizedDescription)")
        }
    }

    static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// Moves `source` to `destination` on the same file system. Without `replace`, an existing
    /// destination is refused atomically (link fails with EEXIST) rather than checked then clobbered.
    static func move(_ source: String, to destination: String, replace: Bool) throws(Failure) {
        if replace {
            guard rename(source, destination) == 0 else { throw Failure("cannot move the capture to \(destination)", errno: errno) }
            return
        }
        guard link(source, destination) == 0 else {
            if errno == EEXIST { throw existing(destination) }
            throw Failure("cannot move the capture to \(destination)", errno: errno)
        }
        _ = unlink(source)
    }

    static func existing(_ path: String) -> Failure {
        Failure("\(path) already exists; pass --force to replace it")
    }

    /// The directory holding `path` ("." for a bare name).
    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The directory of the running executable, from /proc/self/exe.
    static func executableDirectory() throws(Failure) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { throw Failure("cannot read /proc/self/exe", errno: errno) }
        return parentDirectory(of: String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    static func isExecutableFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && access(path, X_OK) == 0
    }

    /// The first executable `name` on $PATH, or nil.
    static func findOnPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }
}
