#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// Where an evidence bundle is put together: a private folder (0700) of its own inside the
/// destination, holding the bundle's files (each 0600) and then the zip, which `place` moves out
/// beside it under its final name — by a link that refuses an existing name, on the same file
/// system. `remove` takes the folder and all in it; nothing else is ever touched.
struct EvidenceStaging {
    let destination: URL
    let folder: URL

    /// Creates the destination (0700) when missing, then the staging folder in it.
    init(in destination: URL) throws(EvidenceExportError) {
        do {
            try PrivateDirectory.create(destination)
        } catch {
            throw .writeFailed(error.description)
        }
        self.destination = destination
        var failure: Int32 = EEXIST
        for _ in 0..<8 {
            let candidate = destination.appendingPathComponent(".tunnelvision-evidence-\(String(UInt64.random(in: 0...UInt64.max), radix: 16)).tmp",
                                                               isDirectory: true)
            if mkdir(candidate.path, 0o700) == 0 {
                folder = candidate
                // mkdir(2) filters the mode through the umask; the folder is the owner's alone.
                guard chmod(candidate.path, 0o700) == 0 else {
                    let code = errno
                    rmdir(candidate.path)
                    throw .writeFailed("cannot write \(candidate.path): \(SystemError.text(code))")
                }
                return
            }
            failure = errno
            if failure != EEXIST { break }
        }
        throw .writeFailed("cannot create a folder in \(destination.path): \(SystemError.text(failure))")
    }

    func url(_ name: String) -> URL { folder.appendingPathComponent(name) }

    /// Writes a new file `name` (0600) of `bytes`; its manifest entry.
    func write(_ name: String, _ bytes: [UInt8]) throws(EvidenceExportError) -> EvidenceManifest.Entry {
        let path = url(name).path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .writeFailed("cannot create \(path): \(SystemError.text(errno))") }
        defer { close(descriptor) }
        guard fchmod(descriptor, 0o600) == 0 else { throw .writeFailed("cannot write \(path): \(SystemError.text(errno))") }
        if let failure = bytes.withUnsafeBytes({ FileDescriptor.writeAll(descriptor, $0) }) {
            throw .writeFailed("cannot write \(path): \(SystemError.text(failure))")
        }
        return EvidenceManifest.Entry(name: name, contents: bytes)
    }

    /// Moves the staged `name` out to the destination as `final`, refusing to replace a file
    /// there, and syncs the destination so the new name survives a power cut.
    func place(_ name: String, as final: String) throws(EvidenceExportError) -> URL {
        let target = destination.appendingPathComponent(final)
        guard link(url(name).path, target.path) == 0 else {
            let code = errno
            if code == EEXIST { throw .writeFailed("\(target.path) exists already: nothing replaces it") }
            throw .writeFailed("cannot create \(target.path): \(SystemError.text(code))")
        }
        let directory = open(destination.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
        return target
    }

    /// Removes the staging folder and everything in it.
    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
