#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// One open file of a rotating, numbered sequence — the capture's `.pcap` files and decrypted
/// content's `.tvpt` files — with the rules both writers keep: a sequence is an identity (the
/// file is created, never truncated or appended to), the file is the person's alone (0600, no link
/// followed), records reach it whole through one buffer, and a failed write leaves it whole.
/// The writers keep what differs: their format, when a file opens and what a failure breaks.
struct RotatingFile {
    let descriptor: Int32
    let sequence: UInt32
    let url: URL
    /// Bytes in the file once the buffer is written out: the next record's offset.
    var size: UInt64

    /// The number after every one taken — in the directory, referenced by the history (a deleted
    /// file's number stays taken), and used by this writer — or nil when none is left.
    static func nextSequence(after taken: UInt32?...) -> UInt32? {
        let highest = taken.compactMap { $0 }.max() ?? 0
        return highest < UInt32.max ? highest + 1 : nil
    }

    /// Creates the file `name` in `directory` for `sequence`, owner-only, and appends its global
    /// `header` to `buffer` (the first bytes the file will hold); the errno when it cannot.
    static func create(_ name: String, in directory: URL, sequence: UInt32, header: [UInt8],
                       buffer: inout [UInt8]) -> Result<RotatingFile, FileFailure> {
        let url = directory.appendingPathComponent(name)
        // O_EXCL: a sequence is an identity, so an existing file is never truncated or appended to;
        // it also refuses a symbolic link planted at the name (O_NOFOLLOW says so for certain).
        let descriptor = Glibc.open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            // O_EXCL answers EEXIST for a link at the name: say what is there.
            let planted = errno == EEXIST && PathStatus.of(url.path)?.kind == .symbolicLink
            return .failure(FileFailure(path: url.path, errno: planted ? ELOOP : errno))
        }
        buffer.append(contentsOf: header)
        return .success(RotatingFile(descriptor: descriptor, sequence: sequence, url: url, size: UInt64(header.count)))
    }

    /// Hands `buffer` (whole records, `size` already counting them) to the kernel in one write,
    /// or cuts the file back to how it was (`DiskReserve.writeWhole`); empties the buffer either way.
    func writeOut(_ buffer: inout [UInt8]) -> FileFailure? {
        guard !buffer.isEmpty else { return nil }
        return DiskReserve.writeWhole(&buffer, to: descriptor, sizeAfter: size).map { FileFailure(path: url.path, errno: $0) }
    }

    /// What was written reaches the disk.
    func sync() -> FileFailure? {
        fsync(descriptor) == 0 ? nil : FileFailure(path: url.path, errno: errno)
    }

    func close() { _ = Glibc.close(descriptor) }

    /// Which file, and the errno it failed with: each writer's error keeps both.
    struct FileFailure: Error {
        let path: String
        let errno: Int32
    }
}
